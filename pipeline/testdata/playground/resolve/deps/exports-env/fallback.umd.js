export const msg = '[failure] fallback'
