import "./lazy-base.css";

const color = () => getComputedStyle(document.getElementById("lazy")).color;
window.extra = { before: color() };
// The row's interaction: import the module whose stylesheet turns the text green.
window.loadLazy = () => import("./lazy-part.js").then((m) => {
  window.extra.inModule = m.seen;
  window.extra.after = color();
});
