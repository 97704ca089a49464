export const msg3 = 'module3'
