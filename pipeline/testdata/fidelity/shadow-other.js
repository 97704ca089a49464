export const other = "other";
