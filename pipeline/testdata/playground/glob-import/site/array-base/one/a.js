export default 'a'
