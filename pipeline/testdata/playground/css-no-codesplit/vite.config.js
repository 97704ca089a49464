export default {
  build: { cssCodeSplit: false },
}
