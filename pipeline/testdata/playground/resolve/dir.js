export const file = '[success] the file over dir/index.js'
