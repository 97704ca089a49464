// A classic script that finds its own URL, as libraries do to locate their files.
window.extra = { own: document.currentScript.src.split("/").pop() };
