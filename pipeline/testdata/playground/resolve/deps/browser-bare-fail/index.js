export default '[failure] bare import'
