export default '[failure] ext'
