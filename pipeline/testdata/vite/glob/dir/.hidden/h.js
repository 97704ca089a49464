export default "hidden";
