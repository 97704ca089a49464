export default '[success] glob-a'
