self.postMessage('A classic worker')
