export const msg = '[failure] main'
