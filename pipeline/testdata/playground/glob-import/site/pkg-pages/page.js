export default 'page'
