// @ts-nocheck
import "../inner/main"
import "../inner-extends/main"
import "./decorated"
import { MainType } from './type-only'

class MainBase {
  set data(value: string) {
    console.log('data setter in MainBase')
  }
}
class MainDerived extends MainBase {
  data = 10
  foo?: MainType
}

new MainDerived()
