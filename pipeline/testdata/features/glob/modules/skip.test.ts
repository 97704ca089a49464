export default "skip";
