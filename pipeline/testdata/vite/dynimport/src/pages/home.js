export default "home";
