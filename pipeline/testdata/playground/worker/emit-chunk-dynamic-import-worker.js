import oneURL from './modules/one.js?url'

import('./modules/a-string.js').then((m) => {
  import(/* @vite-ignore */ oneURL).then((one) => self.postMessage(m.default + one.msg1 + import.meta.env.BASE_URL))
})
