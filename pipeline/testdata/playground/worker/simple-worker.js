self.postMessage('Hello from simple worker!')
