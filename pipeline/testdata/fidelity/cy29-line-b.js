window.cycLog.push("b start");
await new Promise((r) => setTimeout(r, 0));
export const b = () => "b";
window.cycLog.push("b end");
