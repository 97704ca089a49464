window.extra = {};
const color = () => getComputedStyle(document.getElementById("shared")).color;
// The row's interaction: import a module that imports its own stylesheet, then a module
// (code and a stylesheet) another lazy module imports too; then the other.
window.loadBoth = () => import("./atk-sharedjs-a.js").then((a) => {
  window.extra.a = [a.seen, color()];
  return import("./atk-sharedjs-b.js");
}).then((b) => { window.extra.b = [b.seen, color()]; });
