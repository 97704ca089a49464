export default "about";
