export default '[failure] module field'
