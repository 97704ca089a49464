import str from './modules/a-string.js'

export const module = 'module and worker'
self.postMessage(str)
