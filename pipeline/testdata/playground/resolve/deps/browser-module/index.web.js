export default '[success] the browser field over the module field'
