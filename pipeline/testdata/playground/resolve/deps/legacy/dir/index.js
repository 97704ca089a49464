export const msg = '[failure] require'
