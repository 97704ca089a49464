export { msg } from '../shared.js'
