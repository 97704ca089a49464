import { b } from "./cy29-line-b.js";
window.cycLog.push("a start, b is " + typeof b);
await null;
export const a = "a";
window.cycLog.push("a end " + document.readyState);
