import { createRoot } from "react-dom/client";
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";

// What the page shows, for the host to read.
document.modelContext.registerTool({
  name: "state",
  description: "What the page shows.",
  inputSchema: { type: "object", properties: {} },
  execute: () => document.getElementById("root").innerText,
});
const rootRoute = createRootRoute({ component: () => <main><Outlet /></main> });
const index = createRoute({ getParentRoute: () => rootRoute, path: "/", component: () => <p>Home</p> });
const router = createRouter({ routeTree: rootRoute.addChildren([index]) });
createRoot(document.getElementById("root")).render(<RouterProvider router={router} />);
