import { resolve } from 'node:path'

export default {
  build: { rollupOptions: { input: resolve(import.meta.dirname, 'nested/index.html') } },
}
