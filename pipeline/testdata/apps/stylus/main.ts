import panel from "./Panel.module.styl";
const d = document.createElement("div");
d.className = panel.panel;
document.body.append(d);
const bg = document.createElement("div");
bg.className = "bg";
document.body.append(bg);
(window as any).result = { bg: getComputedStyle(bg).backgroundImage.slice(0, 30), color: getComputedStyle(document.querySelector(".box")!).color, weight: getComputedStyle(document.querySelector(".inner")!).fontWeight, border: getComputedStyle(d).borderTopColor };
