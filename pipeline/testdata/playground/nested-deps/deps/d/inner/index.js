export default 'D-inner@1.0.0'
