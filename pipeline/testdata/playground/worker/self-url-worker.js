self.addEventListener('message', (e) => {
  if (e.data === 'main') {
    const again = new Worker(new URL('./self-url-worker.js', import.meta.url), { type: 'module' })
    again.postMessage('nested')
    again.addEventListener('message', (ev) => self.postMessage(ev.data))
  }
  self.postMessage(`pong: ${e.data}`)
})
