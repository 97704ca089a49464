export default 'glob a'
