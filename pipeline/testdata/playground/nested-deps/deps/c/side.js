export { default as C } from '@pg/nested-c'
