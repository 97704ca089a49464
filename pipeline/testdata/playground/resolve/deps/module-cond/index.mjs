export const msg = '[failure] import condition'
