import path from 'node:path'

const here = import.meta.dirname

export default {
  resolve: {
    alias: {
      '=': here,
      '@styles': path.join(here, 'styles'),
    },
  },
  css: {
    preprocessorOptions: {
      scss: {
        additionalData: `$injectedColor: orange;`,
      },
      less: {
        additionalData: `@injectedColor: teal;`,
        math: 'always',
      },
      styl: {
        additionalData: `$injectedColor ?= orange`,
        imports: ['./options/relative.styl', path.join(here, 'options/absolute.styl')],
        define: { $definedSize: 12 },
      },
    },
  },
}
