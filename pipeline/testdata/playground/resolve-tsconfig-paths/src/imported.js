export const word = 'paths'
