export const foo = '[success] implicit dir/index.js'
