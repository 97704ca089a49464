export const msg = 'external y'
