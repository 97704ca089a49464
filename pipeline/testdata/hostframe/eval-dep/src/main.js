import DevMap from "dev-map";

const root = document.getElementById("root");
document.modelContext.registerTool({
  name: "state",
  description: "What the page shows.",
  inputSchema: { type: "object", properties: {} },
  execute: () => root.textContent,
});
DevMap.draw(root);
