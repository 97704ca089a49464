export default "a";
