export default 'css-dep-exports'
