import * as ns from "./cy29-imp-a.js";
window.cycLog.push("b start, a is " + ("a" in ns));
await null;
export const b = () => ns.a;
window.cycLog.push("b end");
