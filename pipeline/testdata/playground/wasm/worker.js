import init from './add.wasm?init'

init().then((instance) => self.postMessage({ result: instance.exports.add(1, 2) }))
