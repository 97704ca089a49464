import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createMemoryRouter, RouterProvider } from "react-router";
import "@fontsource/roboto/400.css";
import "@fontsource/roboto/500.css";
import { Dashboard, Orders, Settings } from "./pages";
import { Layout } from "./Layout";

const router = createMemoryRouter([
  { path: "/", element: <Layout />, children: [
    { index: true, element: <Dashboard /> },
    { path: "orders", element: <Orders /> },
    { path: "settings", element: <Settings /> },
  ] },
]);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
