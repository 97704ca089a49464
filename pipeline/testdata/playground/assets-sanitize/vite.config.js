export default {
  build: { assetsInlineLimit: 0, manifest: true },
}
