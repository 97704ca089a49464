import module from 'node:module'
import path from 'node:path'

const here = import.meta.dirname
const require = module.createRequire(import.meta.url)

export default {
  resolve: {
    alias: [
      { find: 'fs', replacement: path.resolve(here, 'test.js') },
      { find: 'fs-dir', replacement: path.resolve(here, 'dir') },
      { find: 'dep', replacement: '@pg/r-linked' },
      { find: /^regex\/(.*)/, replacement: `${path.resolve(here, 'dir')}/$1` },
      { find: '/@', replacement: path.resolve(here, 'dir') },
      // a pattern that looks like a URL without a scheme
      { find: /^\/\//, replacement: path.join(here, 'dir/') },
      // a package to its browser build
      { find: 'mini-view', replacement: 'mini-view/lib/mini-view.browser.js' },
      // a package to an absolute path, in CommonJS
      { find: 'alias-cjs', replacement: require.resolve('@pg/alias-cjs/lib/shared.cjs') },
      // an alias to an aliased package
      { find: 'foo', replacement: 'mini-view' },
      {
        find: 'custom-resolver',
        replacement: path.resolve(here, 'test.js'),
        customResolver(id) {
          return id.replace('test.js', 'custom-resolver.js')
        },
      },
    ],
  },
  build: { minify: false },
}
