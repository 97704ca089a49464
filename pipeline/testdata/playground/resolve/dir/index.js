export const file = '[failure] dir/index.js'
