export const tag = 'node'
export function mount() {
  throw new Error('the node build')
}
