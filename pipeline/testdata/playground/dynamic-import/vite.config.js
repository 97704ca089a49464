import fs from 'node:fs'
import path from 'node:path'

const here = import.meta.dirname

// copyBeside writes files the page loads at run time, by a URL no build can know, beside the
// page.
function copyBeside(files) {
  let outDir
  return {
    name: 'copy-beside',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    writeBundle() {
      for (const f of files) {
        fs.mkdirSync(path.dirname(path.join(outDir, f)), { recursive: true })
        fs.copyFileSync(path.join(here, f), path.join(outDir, f))
      }
    },
  }
}

export default {
  plugins: [copyBeside(['views/qux.js', 'files/mxd.js'])],
  resolve: {
    alias: {
      '@': path.resolve(here, 'alias'),
    },
  },
}
