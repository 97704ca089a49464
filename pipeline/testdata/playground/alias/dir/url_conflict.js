export const msg = '[success] url conflict alias'
