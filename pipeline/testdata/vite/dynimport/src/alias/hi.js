export default "hi from alias";
