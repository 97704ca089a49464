// Injects an inline script, which the bundle's policy (script hashes only) blocks. Its tag
// is a variable: a literal document.createElement("script") is refused at build time.
const tag = ["scr", "ipt"].join("");
const s = document.createElement(tag);
s.textContent = "window.injected = 1";
document.head.append(s);
document.getElementById("root")!.textContent = "injected an inline script";
