export default '[brackets]'
