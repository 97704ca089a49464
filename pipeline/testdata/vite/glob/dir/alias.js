export default "alias";
