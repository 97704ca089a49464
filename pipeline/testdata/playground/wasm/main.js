import { add } from './add.wasm'
import { answer, bumpCounter } from './global.wasm'
import { getAnswerPlusOne, readCounter } from './global-consumer.wasm'
import heavy from './heavy.wasm?init'
import { getResult } from './imports.js'
import light from './light.wasm?init'
import lightURL from './light.wasm?url'
import { exported_func } from './with-imports.wasm'
import Worker from './worker?worker'

const show = (sel, v) => (document.querySelector(sel).textContent = v)

new Worker().addEventListener('message', (ev) => show('.worker-wasm .result', ev.data.result))
show('.direct-wasm .result', add(1, 2))
exported_func()
show('.direct-wasm-with-imports .result', getResult())
show('.direct-wasm-global .result', `${answer} ${typeof answer}`)
show('.direct-wasm-global-import .result', getAnswerPlusOne())
bumpCounter()
bumpCounter()
show('.direct-wasm-mutable-global-import .result', readCounter())

async function run(init, sel) {
  const instance = await init({ imports: { imported_func: (v) => show(sel, v) } })
  instance.exports.exported_func()
}
document.querySelector('.inline-wasm .run').addEventListener('click', () => run(light, '.inline-wasm .result'))
document.querySelector('.output-wasm .run').addEventListener('click', () => run(heavy, '.output-wasm .result'))
document.querySelector('.init-returns-instance .run').addEventListener('click', async () => {
  const instance = await light({ imports: { imported_func: () => {} } })
  show('.init-returns-instance .result', instance instanceof WebAssembly.Instance)
})
show('.url', lightURL)
