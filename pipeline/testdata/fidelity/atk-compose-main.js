window.extra = { before: getComputedStyle(document.getElementById("composed")).color };
window.loadLazy = () => import("./atk-compose-part.js").then((m) => {
  window.extra.inModule = m.seen;
  window.extra.box = m.box;
  window.extra.after = getComputedStyle(document.getElementById("composed")).color;
});
