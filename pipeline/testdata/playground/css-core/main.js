import './imported.css'
import './inject-url.css'
import './charset.css'
import './layered/index.css'
import './dep.css'
import './css-in-less.less'
import './imports-imports-field.css'
import './at-import.scss'
import './minify.css'
import '=/aliased.css'
import aliasedMod from '=/aliased.module.css'
import mod from './mod.module.css'
import composed from './composes-path-resolving.module.css'
import inlineMod from './inline.module.css?inline'
import inlined from './inlined.css?inline'
import urlCss from './url-imported.css?url'
import rawCss from './raw-imported.css?raw'
import { ok } from './css-js-dep/index.js'
import { a } from './treeshake-module/index.js'
import './async/index.js'

const text = (sel, t) => (document.querySelector(sel).textContent = t)

document.querySelector('.modules').classList.add(mod['apply-color'])
document.querySelector('.path-resolved-modules-css').classList.add(...composed['path-resolving-css'].split(' '))
document.querySelector('.aliased-module').classList.add(aliasedMod['aliased-module'])
text('.modules-inline', inlineMod)
text('.inlined-code', inlined)
text('.raw-imported-css', rawCss)
document.querySelector('.css-js-dep').dataset.ok = String(ok)
document.body.dataset.treeshake = a

const link = document.createElement('link')
link.rel = 'stylesheet'
link.href = urlCss
document.head.appendChild(link)

const glob = import.meta.glob('./glob-import/*.css', { query: '?inline' })
Promise.all(Object.values(glob).map((load) => load())).then((mods) => text('.imported-css-glob', mods.map((m) => m.default).join('')))
text('.imported-css-globEager', Object.values(import.meta.glob('./glob-import/*.css', { query: '?inline', eager: true })).map((m) => m.default).join(''))

import('./async.js')
if (import.meta.env.DEV) {
  import('./async-treeshaken.js')
}
