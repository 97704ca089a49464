export default '[success] bare import'
