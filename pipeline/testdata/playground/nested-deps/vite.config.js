import path from 'node:path'

export default {
  resolve: {
    alias: {
      __F_BY_ITS_PATH__: path.resolve(import.meta.dirname, 'deps/f'),
    },
  },
}
