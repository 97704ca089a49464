self.postMessage(['Hello from root', import.meta.env.BASE_URL, import.meta.url].join(' '))
const second = new Worker(new URL('deep-second-worker.js', import.meta.url), { type: 'module' })
second.addEventListener('message', (ev) => self.postMessage(ev.data))
