import "./lazymod-base.css";

const color = (e) => getComputedStyle(e).color;
window.extra = { before: color(document.getElementById("lazymod")) };
// The row's interaction: import the module whose CSS Module (its class names esbuild's in the
// built page, Vite's in Vite's) turns the text green and its own box purple.
window.loadLazy = () => import("./lazymod-part.js").then((m) => {
  window.extra.inModule = m.seen;
  window.extra.after = color(document.getElementById("lazymod"));
  window.extra.box = m.box;
  window.extra.named = m.named;
});
