export default '(paren)'
