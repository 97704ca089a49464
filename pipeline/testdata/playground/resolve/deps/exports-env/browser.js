export const msg = '[failure] browser.js'
