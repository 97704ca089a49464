export default 'foo'
