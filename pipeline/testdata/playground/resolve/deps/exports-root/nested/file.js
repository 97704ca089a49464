export const msg = '[failure] the nested package.json'
