// What a deferred script sees of its own element (not its src, nor its text while it runs:
// the built page runs the code as the element's text, its file having no URL in one file).
var cs = document.currentScript;
window.order = (window.order ?? []).concat(cs.dataset.role);
window.extra = {
  order: window.order,
  seen: (window.extra?.seen ?? []).concat([[
    cs.dataset.role, cs.id, cs.hasAttribute("defer"), cs.type, cs.parentNode.id || cs.parentNode.tagName,
    cs === document.querySelector('script[data-role="' + cs.dataset.role + '"]'),
    cs.nextElementSibling?.tagName ?? null, cs.isConnected, document.readyState,
  ]]),
};
addEventListener("load", () => {
  window.extra.after = [...document.querySelectorAll("script[data-role]")].map((s) => [s.getAttribute("type"), s.text]);
});
