import "./app.css";
const s = getComputedStyle(document.getElementById("p")!);
(window as any).result = { color: s.color, weight: s.fontWeight, padding: s.paddingTop };
