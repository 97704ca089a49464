const here = import.meta.dirname

export default {
  resolve: {
    alias: {
      '=': here,
    },
  },
  css: {
    modules: {
      generateScopedName: '[name]__[local]___[hash:base64:5]',
    },
  },
}
