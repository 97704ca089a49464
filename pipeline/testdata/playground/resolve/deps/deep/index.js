export default 0
