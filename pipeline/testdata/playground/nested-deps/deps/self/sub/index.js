export { isSelfReference } from '@pg/self-ref'
