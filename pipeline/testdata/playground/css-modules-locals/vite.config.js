export default {
  css: {
    modules: {
      localsConvention: 'camelCase',
    },
  },
}
