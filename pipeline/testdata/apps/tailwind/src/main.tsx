import "../app.css";
const p = document.createElement("p");
p.id = "p";
p.className = "bg-brand underline mt-8";
p.textContent = "Tailwind, no PostCSS";
document.body.append(p);
const s = getComputedStyle(p);
(window as any).result = { background: s.backgroundColor, decoration: s.textDecorationLine, margin: s.marginTop };
