import svg from "./dot.svg";
import inlined from "./dot.svg?url&inline";

const el = document.createElement("div");
el.style.backgroundImage = `url(${svg})`; // unquoted, as apps write it
document.body.append(el);
const set = getComputedStyle(document.getElementById("set")!).backgroundImage;
(window as any).result = {
  unquoted: el.style.backgroundImage.startsWith('url("data:image/svg+xml,'),
  inlined: inlined.startsWith("data:image/svg+xml"),
  nodeEnv: [process.env.NODE_ENV, globalThis.process.env.NODE_ENV, (global as any).process.env.NODE_ENV],
  imageSet: set.includes("data:image/svg+xml"),
};
