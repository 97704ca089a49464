export default 'upper'
