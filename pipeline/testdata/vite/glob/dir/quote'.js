export default "quote";
