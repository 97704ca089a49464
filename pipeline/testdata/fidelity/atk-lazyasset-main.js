window.extra = {};
window.loadLazy = () => import("./atk-lazyasset-part.js").then((m) => {
  window.extra.inModule = m.seen;
  window.extra.after = getComputedStyle(document.getElementById("lazyasset")).color;
});
