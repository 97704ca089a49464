import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const INPUT = process.env.INPUT ?? "mcp-app.html";

export default defineConfig({
  plugins: [svelte(), viteSingleFile()],
  build: { rollupOptions: { input: INPUT }, outDir: "dist", emptyOutDir: false },
});
