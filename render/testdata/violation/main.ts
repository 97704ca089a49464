// Injects an inline script, which the bundle's policy (script hashes only) blocks.
const s = document.createElement("script");
s.textContent = "window.injected = 1";
document.head.append(s);
document.getElementById("root")!.textContent = "injected an inline script";
