import panel from "./Panel.module.less";
const d = document.createElement("div");
d.className = panel.panel;
document.body.append(d);
const el = (c: string) => {
  const e = document.createElement("div");
  e.className = c;
  document.body.append(e);
  return getComputedStyle(e).backgroundImage.slice(0, 30);
};
(window as any).result = { bg: el("bg"), di: el("di"), color: getComputedStyle(document.querySelector(".box")!).color, weight: getComputedStyle(document.querySelector(".inner")!).fontWeight, border: getComputedStyle(d).borderTopColor };
