export default '[failure] node'
