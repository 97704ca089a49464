export default "[brackets]";
