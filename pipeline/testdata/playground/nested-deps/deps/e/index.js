export { viaCount } from '@pg/nested-e-via'
export { count } from '@pg/nested-e-counted'
