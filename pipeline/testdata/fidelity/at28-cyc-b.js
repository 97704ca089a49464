import * as ns from "./at28-cyc-a.js";
window.cycLog.push("b start, a is " + ("a" in ns));
await new Promise((r) => setTimeout(r, 0));
export const b = () => ns.a;
window.cycLog.push("b end");
