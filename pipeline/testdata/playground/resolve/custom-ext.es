export const msg = '[success] resolve.extensions'
