// A classic script with defer: it runs after parsing, in order with the module scripts.
var fromD1 = "global";
window.order = ["d1 " + document.readyState];
window.extra = { order: window.order };
