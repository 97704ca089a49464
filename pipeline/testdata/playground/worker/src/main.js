import { startWorker } from '@pg/w-self-url'
import InlineSharedWorker from '../my-inline-shared-worker?sharedworker&inline'
import MySharedWorker from '../my-shared-worker?sharedworker&name=shared'
import MyWorker from '../my-worker.ts?worker'
import InlineWorker from '../my-worker.ts?worker&inline'
import NestingWorker from '../nesting-worker?worker'
import SelfWorker from '../self-worker?worker'
import TSOutputWorker from '../ts-output-worker?worker'
import simpleWorkerURL from '../simple-worker?worker&url'

const show = (sel, v) => (document.querySelector(sel).textContent = v)
const add = (sel, v) => (document.querySelector(sel).textContent += v)
const reply = (worker, f, ping = 'ping') => {
  worker.addEventListener('message', (e) => f(e.data))
  worker.postMessage(ping)
}

reply(new MyWorker(), (d) => {
  show('.pong', d.msg)
  show('.mode', d.mode)
  show('.asset-url', d.logo)
  show('.dep-cjs', d.depCjs.test)
})
reply(new MyWorker({ name: 'namedWorker' }), (d) => show('.pong-named', d.name))
reply(new InlineWorker(), (d) => show('.pong-inline', d.msg))
reply(new InlineWorker({ name: 'namedInlineWorker' }), (d) => show('.pong-inline-named', d.name))
reply(new InlineWorker(), (d) => show('.pong-inline-url', d.metaUrl))
reply(new InlineWorker(), (d) => show('.pong-inline-unicode', d.msg), 'ping-unicode')
reply(new TSOutputWorker(), (d) => show('.pong-ts-output', d.msg))

for (const [make, sel] of [
  [() => new MySharedWorker(), '.tick-count'],
  [() => new MySharedWorker({ name: 'namedSharedWorker' }), '.tick-count-named'],
  [() => new InlineSharedWorker(), '.pong-shared-inline'],
]) {
  for (let i = 0; i < 2; i++) {
    const w = make()
    w.port.addEventListener('message', (e) => show(sel, e.data))
    w.port.start()
  }
}

const nesting = new NestingWorker()
nesting.addEventListener('message', (ev) => {
  if (typeof ev.data === 'string') show('.nested-worker', JSON.stringify(ev.data))
  else if (ev.data.type === 'module') show('.nested-worker-module', JSON.stringify(ev.data))
  else if (ev.data.type === 'constructor') show('.nested-worker-constructor', JSON.stringify(ev.data))
  else if (ev.data.type === 'globEager') show('.glob-eager-worker', JSON.stringify(ev.data.data))
})
nesting.postMessage('ping')

const options = { type: 'module' }
const showData = (sel) => (ev) => show(sel, JSON.stringify(ev.data))
new Worker(new URL('../url-worker.js', import.meta.url), /* @vite-ignore */ options).addEventListener('message', showData('.worker-import-meta-url'))
new Worker(new URL('@/url-worker.js', import.meta.url), /* @vite-ignore */ options).addEventListener('message', showData('.worker-import-meta-url-resolve'))
new Worker(new URL('../url-worker', import.meta.url), /* @vite-ignore */ options).addEventListener('message', showData('.worker-import-meta-url-without-extension'))
const shared = new SharedWorker(new URL('../url-shared-worker.js', import.meta.url), { name: 'module', type: 'module' })
shared.port.addEventListener('message', (ev) => show('.shared-worker-import-meta-url', JSON.stringify(ev.data)))
shared.port.start()

new Worker(new URL('../classic-worker.js', import.meta.url)).addEventListener('message', (ev) => show('.classic-worker', ev.data))
const classicShared = new SharedWorker(new URL('../classic-shared-worker.js', import.meta.url))
classicShared.port.addEventListener('message', (ev) => show('.classic-shared-worker', ev.data))
classicShared.port.start()

const deep = new Worker(new URL('../deep-worker.js', import.meta.url), { type: 'module' })
deep.addEventListener('message', (ev) => {
  const which = ev.data.startsWith('Hello from root') ? '.deep-root' : ev.data.startsWith('Hello from second') ? '.deep-second' : '.deep-third'
  show(which, ev.data)
})

const emitted = []
new Worker(new URL('../emit-chunk-worker.js', import.meta.url), { type: 'module' }).addEventListener('message', (ev) => {
  emitted.push(ev.data)
  show('.emit-chunk-worker', JSON.stringify(emitted.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))))
})
new Worker(new URL('../emit-chunk-dynamic-import-worker.js', import.meta.url), { type: 'module' }).addEventListener('message', (ev) => {
  show('.emit-chunk-dynamic-import-worker', JSON.stringify(ev.data))
})

new Worker(simpleWorkerURL).addEventListener('message', (ev) => show('.simple-worker-url', ev.data))

reply(new (await import('../glob.worker.js?worker')).default(), (d) => show('.glob-worker', JSON.stringify(d)))

const requireJSON = new Worker(new URL('../require-json-worker.js', import.meta.url), { type: 'module' })
requireJSON.addEventListener('message', (e) => show('.worker-require-json', e.data.content))

const selfWorker = new SelfWorker()
selfWorker.addEventListener('message', (e) => add('.self-reference-worker', `${e.data}\n`))
selfWorker.postMessage('main')
const selfURL = new Worker(new URL('../self-url-worker.js', import.meta.url), { type: 'module' })
selfURL.addEventListener('message', (e) => add('.self-reference-url-worker', `${e.data}\n`))
selfURL.postMessage('main')
startWorker((e) => add('.self-reference-url-worker-dep', `${e.data}\n`))
