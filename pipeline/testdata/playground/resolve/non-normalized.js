export const msg = '[success] a non-normalized absolute path'
