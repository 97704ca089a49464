import styles from "./lazymod.module.css";

// Outside <body>, which the fingerprint reads: the class name is the build's own (esbuild's
// or Vite's), only what it does is compared.
const el = document.createElement("div");
el.className = styles.box;
document.documentElement.appendChild(el);

export const seen = getComputedStyle(document.getElementById("lazymod")).color;
export const box = getComputedStyle(el).color;
export const named = Object.keys(styles).sort().join(" ");
