import "./cy29-three-b.js";
export const a = "a";
window.cycLog.push("a end");
