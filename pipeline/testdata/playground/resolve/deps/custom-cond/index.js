export const msg = '[failure] import'
