export const msg = 'foo'
