export const file = '[failure] file.js.js'
