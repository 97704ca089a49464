export const self = 'self'
