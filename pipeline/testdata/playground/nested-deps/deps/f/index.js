export default 'F@2.0.0'
