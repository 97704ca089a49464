export const hello = 'hello'
