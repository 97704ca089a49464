self.onconnect = (e) => e.ports[0].postMessage('A classic shared worker')
