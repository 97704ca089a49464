export default 'included'
