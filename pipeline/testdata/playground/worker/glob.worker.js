const mods = import.meta.glob('./modules/glob-*.js')
self.onmessage = () => self.postMessage(Object.keys(mods))
