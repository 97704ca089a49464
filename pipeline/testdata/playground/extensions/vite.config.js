export default {
  resolve: {
    alias: [{ find: 'greeter', replacement: 'greeter/dist/greeter.browser.js' }],
    extensions: ['.js'],
  },
}
