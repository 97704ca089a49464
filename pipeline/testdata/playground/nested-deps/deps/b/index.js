export { default as A } from '@pg/nested-a'
export default 'B@1.0.0'
