import str from './modules/a-string.js'

self.onconnect = (e) => e.ports[0].postMessage(str)
