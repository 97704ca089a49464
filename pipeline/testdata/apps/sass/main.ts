import panel from "./Panel.module.scss";
const d = document.createElement("div");
d.className = panel.panel;
document.body.append(d);
(window as any).result = { color: getComputedStyle(document.querySelector(".box")!).color, weight: getComputedStyle(document.querySelector(".inner")!).fontWeight, border: getComputedStyle(d).borderTopColor };
