Promise.all([import('./module-and-worker'), import('./modules/two.js'), import('./modules/three.js')]).then((mods) => {
  self.postMessage({ ...mods[0], ...mods[1], ...mods[2] })
})
