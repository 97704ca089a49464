export default 'glob b'
