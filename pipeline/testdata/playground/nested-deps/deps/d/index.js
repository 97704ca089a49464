export { default as inner } from '@pg/nested-d-inner'
export default 'D@1.0.0'
