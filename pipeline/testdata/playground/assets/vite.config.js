import path from 'node:path'

// relative paths of assetsInclude are taken from the working folder
process.chdir(import.meta.dirname)

export default {
  publicDir: 'static',
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'nested'),
      fragment: path.resolve(import.meta.dirname, 'nested/fragment-bg.svg'),
    },
  },
  assetsInclude: ['**/*.unknown', './nested/*.custom'],
  build: { assetsInlineLimit: 8000 },
}
