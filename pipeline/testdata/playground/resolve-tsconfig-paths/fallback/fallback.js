export default '[success] the second of the paths'
