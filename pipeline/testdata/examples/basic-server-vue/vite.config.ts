import vue from "@vitejs/plugin-vue";
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const INPUT = process.env.INPUT ?? "mcp-app.html";

export default defineConfig({
  plugins: [vue(), viteSingleFile()],
  build: { rollupOptions: { input: INPUT }, outDir: "dist", emptyOutDir: false },
});
