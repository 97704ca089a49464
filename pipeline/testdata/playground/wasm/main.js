import heavy from './heavy.wasm?init'
import light from './light.wasm?init'
import lightURL from './light.wasm?url'
import Worker from './worker?worker'

const show = (sel, v) => (document.querySelector(sel).textContent = v)

new Worker().addEventListener('message', (ev) => show('.worker-wasm .result', ev.data.result))

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
