var classicGlobal = 1;
window.extra = {};
window.dyn = import("./at28-instance.js").then((m) => { window.extra.dyn = typeof m.instance; });
