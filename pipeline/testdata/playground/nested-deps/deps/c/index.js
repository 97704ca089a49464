// the module field wins: never read
export default 'C@1.0.0'
