window.cycLog.push("c start");
await new Promise((r) => setTimeout(r, 0));
export const c = "c";
window.cycLog.push("c end");
