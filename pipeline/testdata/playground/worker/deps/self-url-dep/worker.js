self.addEventListener('message', (e) => {
  if (e.data === 'main') {
    const again = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
    again.addEventListener('message', (ev) => self.postMessage(ev.data))
    again.postMessage('nested')
  }
  self.postMessage(`dep pong: ${e.data}`)
})
