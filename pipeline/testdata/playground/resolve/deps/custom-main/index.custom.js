export const msg = '[success] resolve.mainFields'
