import * as ns from "./cy29-dep-a.js";
import { c } from "./cy29-dep-c.js";
window.cycLog.push("b start, a is " + ("a" in ns) + ", c is " + c);
export const b = () => ns.a;
window.cycLog.push("b end");
