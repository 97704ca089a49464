export function hello() {
  return 'from a folder named (group)'
}
