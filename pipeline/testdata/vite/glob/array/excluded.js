export default "excluded";
