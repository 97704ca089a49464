self.postMessage(['Hello from second', import.meta.env.BASE_URL, import.meta.url].join(' '))
const third = new Worker(new URL('deep-third-worker.js', import.meta.url), { type: 'module' })
third.addEventListener('message', (ev) => self.postMessage(ev.data))
