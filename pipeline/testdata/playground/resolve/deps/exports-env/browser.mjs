export const msg = '[success] exports env: browser.mjs'
