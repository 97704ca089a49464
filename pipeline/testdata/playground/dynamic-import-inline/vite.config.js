export default {
  build: {
    sourcemap: true,
    rolldownOptions: { output: { codeSplitting: false } },
  },
}
