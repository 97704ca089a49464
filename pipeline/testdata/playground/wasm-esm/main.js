import { add } from './add.wasm'
import { answer, bumpCounter } from './global.wasm'
import { getAnswerPlusOne, readCounter } from './global-consumer.wasm'
import { getResult } from './imports.js'
import { exported_func } from './with-imports.wasm'

const show = (sel, v) => (document.querySelector(sel).textContent = v)
show('.direct-wasm .result', add(1, 2))
exported_func()
show('.direct-wasm-with-imports .result', getResult())
show('.direct-wasm-global .result', `${answer} ${typeof answer}`)
show('.direct-wasm-global-import .result', getAnswerPlusOne())
bumpCounter()
bumpCounter()
show('.direct-wasm-mutable-global-import .result', readCounter())
