import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const INPUT = process.env.INPUT ?? "mcp-app.html";

export default defineConfig({
  plugins: [react(), viteSingleFile()],
  build: { rollupOptions: { input: INPUT }, outDir: "dist", emptyOutDir: false },
});
