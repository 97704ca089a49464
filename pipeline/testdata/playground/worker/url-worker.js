import str from './modules/a-string.js'

self.postMessage(str)
