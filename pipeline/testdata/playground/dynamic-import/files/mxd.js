export default 'mxd'
