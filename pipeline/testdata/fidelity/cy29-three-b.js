import "./cy29-three-c.js";
await new Promise((r) => setTimeout(r, 0));
window.cycLog.push("b end");
