export default 'b'
