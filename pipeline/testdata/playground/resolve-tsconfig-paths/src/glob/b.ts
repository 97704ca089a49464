export default '[success] glob-b'
