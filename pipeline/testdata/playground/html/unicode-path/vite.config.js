import { resolve } from 'node:path'

export default {
  build: { rollupOptions: { input: resolve(import.meta.dirname, 'unicode-path/中文-にほんご-한글-🌕🌖🌗/index.html') } },
}
