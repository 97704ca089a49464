export const n = 42;
