import * as self from "./cy29-self.js";
window.cycLog.push("self start, s is " + ("s" in self));
await new Promise((r) => setTimeout(r, 0));
export const s = "s";
window.cycLog.push("self end " + self.s);
