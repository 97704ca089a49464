export default 'hi'
