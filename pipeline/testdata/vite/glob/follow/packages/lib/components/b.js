export default "b";
