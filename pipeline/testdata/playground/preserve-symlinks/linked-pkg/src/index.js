import { data } from './data'

export function hello() {
  return data
}
