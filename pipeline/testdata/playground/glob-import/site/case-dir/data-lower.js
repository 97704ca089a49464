export default 'lower'
