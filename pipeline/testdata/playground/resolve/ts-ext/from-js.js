export { msg } from './hello.js'
