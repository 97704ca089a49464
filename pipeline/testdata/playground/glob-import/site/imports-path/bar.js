export default 'bar'
