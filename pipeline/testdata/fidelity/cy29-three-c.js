import * as ns from "./cy29-three-a.js";
export const c = () => ns.a;
window.cycLog.push("c end");
