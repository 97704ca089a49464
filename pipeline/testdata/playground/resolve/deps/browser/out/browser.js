export default '[success] the browser field'
