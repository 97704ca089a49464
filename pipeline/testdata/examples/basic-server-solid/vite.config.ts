import { defineConfig } from "vite";
import solid from "vite-plugin-solid";
import { viteSingleFile } from "vite-plugin-singlefile";

const INPUT = process.env.INPUT ?? "mcp-app.html";

export default defineConfig({
  plugins: [solid(), viteSingleFile()],
  build: { rollupOptions: { input: INPUT }, outDir: "dist", emptyOutDir: false },
});
