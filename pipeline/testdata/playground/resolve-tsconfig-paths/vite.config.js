export default {
  resolve: {
    tsconfigPaths: true,
  },
}
