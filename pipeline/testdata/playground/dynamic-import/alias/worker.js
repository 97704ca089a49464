self.onmessage = () => self.postMessage('load worker')
