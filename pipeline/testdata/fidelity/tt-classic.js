// A classic script with defer, under the page's Trusted Types.
window.extra = { log: ["classic " + document.readyState + " " + (document.currentScript?.tagName ?? "none")] };
