export const msg2 = 'module2'
