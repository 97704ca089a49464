const ports = new Set<MessagePort>()

self.onconnect = (event: MessageEvent) => {
  const port = event.ports[0]
  ports.add(port)
  port.postMessage('pong')
  port.onmessage = () => ports.forEach((p) => p.postMessage('pong'))
}
