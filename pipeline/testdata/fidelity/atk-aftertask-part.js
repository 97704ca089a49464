export const part = "part";
