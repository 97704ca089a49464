export default "b"; export const upper = "B";
