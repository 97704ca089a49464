export const msg = 'single-quote'
