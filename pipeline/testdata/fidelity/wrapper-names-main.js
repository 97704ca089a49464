import styles from "./wrapper-names.module.css";
import lib from "./wrapper-names-lib.cjs";

// A CommonJS module in a page that imports a CSS Module: the build that keeps the CSS
// Module's names wraps it as __commonJS({ "wrapper-names-lib.cjs"(exports, module) { … } }).
// The class names are Vite's in Vite's build and esbuild's in the built page: the element
// that shows the class's color is taken out again.
const probe = document.createElement("span");
probe.className = styles.note;
document.getElementById("wrapped").append(probe);
window.extra = { seen: [lib.twice(21), lib.name, getComputedStyle(probe).color] };
probe.remove();
