export default 'excluded'
