self.onmessage = () => self.postMessage({ msg: 'pong' })
