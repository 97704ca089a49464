export const msg = 'hello'
