export const square = (n: number) => n * n;
