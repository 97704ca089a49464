// Registers its tool 400 ms after it loads, as an app does once its data is ready: the host
// hears notifications/tools/list_changed and lists the tools again.
import { registerTool } from "@miniapp/sdk";

setTimeout(() => {
  registerTool({ name: "ready", description: "Says the data is ready.", execute: () => "ready" });
}, 400);
