export const msg = 'Baz view'
