import { a } from "./cy29-ts-a";
const wait = (n: number): Promise<number> => new Promise((r) => setTimeout(() => r(n), 0));
const n: number = ((await wait(1)) as number) + 1;
export const b = (): string => a + n;
