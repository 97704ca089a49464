export default "included";
