const mods = import.meta.glob('./modules/glob-*.js', { eager: true })
self.onmessage = () => self.postMessage(Object.keys(mods))
