import { createRoot } from "react-dom/client";
import { createHashRouter, RouterProvider } from "react-router";

// What the page shows, for the host to read.
document.modelContext.registerTool({
  name: "state",
  description: "What the page shows.",
  inputSchema: { type: "object", properties: {} },
  execute: () => document.getElementById("root").innerText,
});
const router = createHashRouter([{ path: "/", element: <p>Home</p> }]);
createRoot(document.getElementById("root")).render(<RouterProvider router={router} />);
