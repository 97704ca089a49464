import GlobWorker from './glob-eager.worker?worker'
import SubWorker from './sub-worker?worker'

const sub = new SubWorker()
self.onmessage = (e) => {
  if (e.data === 'ping') sub.postMessage('ping')
}
self.postMessage('nesting-worker')
sub.onmessage = (ev) => self.postMessage({ type: 'module', data: ev.data })

const byURL = new Worker(new URL('./url-worker.js', import.meta.url), { type: 'module' })
byURL.addEventListener('message', (ev) => self.postMessage({ type: 'constructor', data: ev.data }))

const glob = new GlobWorker()
glob.postMessage('1')
glob.addEventListener('message', (ev) => self.postMessage({ type: 'globEager', data: ev.data }))
