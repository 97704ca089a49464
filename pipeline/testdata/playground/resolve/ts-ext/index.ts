export { msg } from './hello.js'
export { msgJsx } from './jsx.jsx'
export { msgTsx } from './tsx.js'
export { msgMjs } from './esm.mjs'
