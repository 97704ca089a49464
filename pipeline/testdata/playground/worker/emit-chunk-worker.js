import Sub from './emit-chunk-sub-worker?worker'

const sub = new Sub()
sub.onmessage = (e) => self.postMessage({ type: 'sub', data: e.data })
const both = new Worker(new URL('./module-and-worker.js', import.meta.url), { type: 'module' })
both.onmessage = (e) => self.postMessage({ type: 'module-and-worker:worker', data: e.data })
import('./module-and-worker').then((m) => self.postMessage({ type: 'module-and-worker:module', data: m.module }))
