export const a = 'a'
export const b = 'rest-b'
export const c = 'rest-c'
