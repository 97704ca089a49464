import "./app.css";

const root = document.getElementById("root")!;
document.modelContext.registerTool({
  name: "state",
  description: "The styles Tailwind CSS gave the page.",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    const s = getComputedStyle(root);
    return JSON.stringify({ margin: s.marginTop, weight: s.fontWeight, decoration: s.textDecorationLine });
  },
});
