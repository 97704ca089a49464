import { count } from '@pg/nested-e-counted'

export function viaCount() {
  return count()
}
