import Self from './self-worker?worker'

self.addEventListener('message', (e) => {
  if (e.data === 'main') {
    const again = new Self()
    again.postMessage('nested')
    again.addEventListener('message', (ev) => self.postMessage(ev.data))
  }
  self.postMessage(`pong: ${e.data}`)
})
