// @ts-nocheck
import { InnerExtendsType } from './type-only'

class InnerExtendsBase {
  set data(value: string) {
    console.log('data setter in InnerExtendsBase')
  }
}
class InnerExtendsDerived extends InnerExtendsBase {
  data = 10
  foo?: InnerExtendsType
}

new InnerExtendsDerived()
