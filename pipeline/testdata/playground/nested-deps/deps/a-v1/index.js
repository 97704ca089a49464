export default 'A@1.0.0'
