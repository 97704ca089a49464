export const msg = 'main'
