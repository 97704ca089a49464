// Answers the call at once, and fetches 1.5 s later: a fixed window after the calls missed it.
import { registerTool } from "@miniapp/sdk";

registerTool({
  name: "save",
  description: "Saves, later.",
  execute: () => {
    setTimeout(() => fetch("https://api.example.com/late").catch(() => {}), 1500);
    return "saved";
  },
});
