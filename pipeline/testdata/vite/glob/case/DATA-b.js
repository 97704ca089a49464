export default "upper";
