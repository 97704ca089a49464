import { a } from "./cy29-ts-a";
import { b } from "./cy29-ts-b";
console.log(a, b());
