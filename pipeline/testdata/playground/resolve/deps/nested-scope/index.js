export default '[failure]'
