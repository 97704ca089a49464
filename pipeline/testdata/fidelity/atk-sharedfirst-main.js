window.extra = {};
const color = () => getComputedStyle(document.getElementById("shared")).color;
// The row's interaction: import a module whose stylesheet another lazy module imports too,
// before its own, then the other.
window.loadBoth = () => import("./atk-sharedfirst-a.js").then((a) => {
  window.extra.a = [a.seen, color()];
  return import("./atk-shared-b.js");
}).then((b) => { window.extra.b = [b.seen, color()]; });
