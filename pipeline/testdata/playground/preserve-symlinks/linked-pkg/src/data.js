export const data = { text: 'found through the link' }
