import { createRoot } from "react-dom/client";
import { ImageSource } from "./engine";

const sword = new ImageSource("./images/sword.png");
const names = { "/images/logo.png": "the logo's key" };

function App() {
  return <img id="logo" src="/images/logo.png" alt={names["/images/logo.png"]} />;
}

const ready = Promise.all([
  sword.load().then((img) => `${img.naturalWidth}x${img.naturalHeight}`),
  fetch("/data/levels.json").then((r) => r.json()).then((d) => d.levels),
  new Promise((resolve) => setTimeout(resolve, 50)).then(() => document.getElementById("logo").decode()).then(() => document.getElementById("logo").naturalWidth),
]);

document.modelContext.registerTool({
  name: "state",
  description: "What the page loaded.",
  inputSchema: { type: "object", properties: {} },
  execute: async () => JSON.stringify(await ready.catch((e) => String(e))),
});
createRoot(document.getElementById("root")).render(<App />);
