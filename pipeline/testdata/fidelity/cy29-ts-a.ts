import { b } from "./cy29-ts-b";
export const a: string = "a" + typeof b;
