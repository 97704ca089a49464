// @ts-nocheck
import { InnerType } from './type-only'

class InnerBase {
  set data(value: string) {
    console.log('data setter in InnerBase')
  }
}
class InnerDerived extends InnerBase {
  data = 10
  foo?: InnerType
}

new InnerDerived()
