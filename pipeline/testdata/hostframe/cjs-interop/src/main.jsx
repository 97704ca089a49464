import { createRoot } from "react-dom/client";
import Chart from "cjs-chart";
import { version } from "cjs-chart";

// What the page shows, for the host to read.
document.modelContext.registerTool({
  name: "state",
  description: "What the page shows.",
  inputSchema: { type: "object", properties: {} },
  execute: () => JSON.stringify({ chart: typeof Chart, version, shown: document.getElementById("root").textContent }),
});
createRoot(document.getElementById("root")).render(<Chart type="line" />);
