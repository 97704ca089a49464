export function hello() {
  return 'hello'
}
