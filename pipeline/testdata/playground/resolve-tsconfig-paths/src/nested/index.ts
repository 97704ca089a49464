export * from './a'
export * from './b'
