export const foo = () => {
  console.log('syntax foo')
}
export default () => {
  console.log('syntax default')
}
