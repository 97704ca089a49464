export { msg } from '#dot-prefixed'
