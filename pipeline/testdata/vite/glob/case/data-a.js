export default "lower";
