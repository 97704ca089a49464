import "./lazy-part.css";

// Vite links the chunk's stylesheet before the chunk runs (dev: the CSS module runs first).
export const seen = getComputedStyle(document.getElementById("lazy")).color;
