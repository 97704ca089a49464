import './lazy-js.css'
import './style.css'
import './main.css'
import './order/index.js'
import './chunk.css'
import chunkURL from './chunk.css?url'

globalThis.__chunkURL = chunkURL

import('./dynamic.css')
import('./lazy-js.js')
import('./inline.css?inline').then((css) => {
  document.querySelector('.dynamic-inline').textContent = css.default
})
import('./mod.module.css').then((css) => {
  document.querySelector('.dynamic-module').textContent = JSON.stringify(css.default)
  document.querySelector('.mod').classList.add(css.default.mod)
})
