import * as ns from "./cy29-nocyc-a.js";
window.cycLog.push("b start, a is " + ("a" in ns));
export const b = () => ns.a;
window.cycLog.push("b end");
