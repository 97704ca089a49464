export const msg = "foo"; export default "foo";
