export default {
  esbuild: { legalComments: 'none', minifySyntax: false },
  build: { minify: 'esbuild', cssMinify: 'esbuild' },
}
