import { b } from "./cy29-imp-b.js";
window.cycLog.push("a start, b is " + typeof b);
for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
export const a = "a";
window.cycLog.push("a end");
