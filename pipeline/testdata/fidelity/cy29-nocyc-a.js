import { b } from "./cy29-nocyc-b.js";
window.cycLog.push("a start, b is " + typeof b);
export const a = "a";
window.cycLog.push("a end");
