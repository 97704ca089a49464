export default "a"; export const upper = "A";
