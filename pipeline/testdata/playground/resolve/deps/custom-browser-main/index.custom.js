export const msg = 'custom'
