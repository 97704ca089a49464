export const self = 'nested self'
