export default "foo";
