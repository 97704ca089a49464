export default {
  resolve: {
    extensions: ['.mjs', '.js', '.es', '.ts', '.jsx', '.tsx', '.json'],
    mainFields: ['browser', 'custom', 'module'],
    conditions: ['module', 'browser', 'production', 'custom'],
  },
}
