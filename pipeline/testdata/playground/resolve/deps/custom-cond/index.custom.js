export const msg = '[success] resolve.conditions'
