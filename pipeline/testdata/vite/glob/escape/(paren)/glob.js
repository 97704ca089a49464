export default "(paren)";
