export const greeting = "through paths";
