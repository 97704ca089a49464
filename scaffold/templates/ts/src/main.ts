// The app's tools and context, with @miniapp/sdk (bundle build puts the SDK in the page).
import "./style.css";
import { registerTool, setContext } from "@miniapp/sdk";

let count = 0;
const output = document.getElementById("count") as HTMLOutputElement;
const show = () => (output.textContent = String(count));
document.getElementById("add")!.addEventListener("click", () => {
  count++;
  show();
});

// A read tool: the host may call it without asking.
registerTool({
  name: "get_count",
  description: "Read the current count.",
  annotations: { readOnlyHint: true },
  execute: () => ({ count }),
});

// A write tool: the host asks the person first.
registerTool({
  name: "set_count",
  description: "Set the count to a whole number from 0 to 1000.",
  inputSchema: { type: "object", properties: { count: { type: "integer", minimum: 0, maximum: 1000 } }, required: ["count"] },
  execute: (args: { count: number }) => {
    count = args.count;
    show();
    return `The count is now ${count}.`;
  },
});

// What the assistant reads when it asks what the person sees.
setContext(() => ({ title: "Counter", summary: `The count is ${count}.`, data: { count } }));
