export default '[failure] no-ext'
