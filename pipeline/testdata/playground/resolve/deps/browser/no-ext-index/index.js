export default '[failure] no-ext-index'
