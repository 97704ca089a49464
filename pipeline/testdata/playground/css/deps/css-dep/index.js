export default 'css-dep'
