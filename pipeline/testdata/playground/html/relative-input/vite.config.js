import { relative, resolve } from 'node:path'

// Relative to the working directory, as Vite's playground passes it.
export default {
  build: { rollupOptions: { input: relative(process.cwd(), resolve(import.meta.dirname, 'relative-input.html')) } },
}
