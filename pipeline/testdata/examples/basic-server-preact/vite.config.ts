import preact from "@preact/preset-vite";
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const INPUT = process.env.INPUT ?? "mcp-app.html";

export default defineConfig({
  plugins: [preact(), viteSingleFile()],
  build: { rollupOptions: { input: INPUT }, outDir: "dist", emptyOutDir: false },
});
