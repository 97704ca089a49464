export { msg } from '#top-level'
