export const msg = '[failure] module field'
