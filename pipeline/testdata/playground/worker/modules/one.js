export const msg1 = 'module1'
