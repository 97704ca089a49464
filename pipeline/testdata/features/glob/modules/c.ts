export default "c"; export const upper = "C";
