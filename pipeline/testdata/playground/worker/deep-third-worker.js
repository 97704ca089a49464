self.postMessage(['Hello from third', import.meta.env.BASE_URL, import.meta.url].join(' '))
