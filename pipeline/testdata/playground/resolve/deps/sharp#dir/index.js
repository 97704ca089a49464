export const test = 'ok'
