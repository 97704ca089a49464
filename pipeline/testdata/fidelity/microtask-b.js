// Runs after the first script's microtasks, even those that queue more.
export const said = "b " + window.fromA;
window.extra.log.push("b sync " + window.fromA);
Promise.resolve().then(() => window.extra.log.push("b then"));
