export const foo = () => {
  console.log('shaken foo')
}
export const bar = () => {
  console.log('shaken bar')
}
export const baz1 = () => {
  console.log('shaken baz1')
}
export const baz4 = () => {
  console.log('shaken baz4')
}
export const baz5 = () => {
  console.log('shaken baz5')
}
export const baz6 = () => {
  console.log('shaken baz6')
}
export const removed = () => {
  console.log('shaken removed')
}
export const baz2 = { log: () => console.log('shaken baz2') }
export const baz3 = { log: () => console.log('shaken baz3') }
export default () => {
  console.log('shaken default')
}
