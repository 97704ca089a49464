export default "bar";
