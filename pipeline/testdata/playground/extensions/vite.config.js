export default {
  resolve: {
    alias: [{ find: 'greeter', replacement: 'greeter/lib/greeter.browser.js' }],
    extensions: ['.js'],
  },
}
