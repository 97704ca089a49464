document.addEventListener("click", () => import("./lazy-part.js"));
