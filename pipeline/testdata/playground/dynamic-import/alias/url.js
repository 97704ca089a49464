export const url = 'url'
