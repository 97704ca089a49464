import mxdStatic from '../files/mxd'
import mxdStaticJSON from '../files/mxd.json'

const show = (sel, v) => (document.querySelector(sel).textContent = v)
const on = (sel, f) => document.querySelector(sel).addEventListener('click', f)

async function setView(name) {
  const { msg } = await import(`../views/${name}.js`)
  show('.view', msg)
}
for (const name of ['foo', 'bar']) on(`.${name}`, () => setView(name))

on('.baz', async () => {
  const { msg } = await import('../views/baz.js')
  show('.view', msg)
})

// a URL the build cannot know: a file kept beside the page
const names = ['qux.js']
const beside = `/views/${names[0]}`
on('.qux', async () => {
  const { msg } = await import(/* @vite-ignore */ beside)
  show('.view', msg)
})

on('.mxd', async () => {
  const name = 'mxd'
  const { default: mxdDynamic } = await import(`../files/${name}.js`)
  show('.view', mxdStatic === mxdDynamic)
})

on('.mxd2', async () => {
  const where = { path: '../files/mxd.js' }
  const { default: mxdDynamic } = await import(/* @vite-ignore */ where.path)
  show('.view', mxdStatic === mxdDynamic)
})

on('.mxdjson', async () => {
  const name = 'mxd'
  const { default: mxdDynamicJSON } = await import(`../files/${name}.json`)
  show('.view', mxdStaticJSON === mxdDynamicJSON)
})

const blobURL = URL.createObjectURL(new Blob(['export const msg = "from a blob"'], { type: 'text/javascript' }))
on('.blob', async () => {
  const { msg } = await import(/* @vite-ignore */ blobURL)
  show('.view', msg)
})

const dataURL = `data:text/javascript,${encodeURIComponent('export const msg = "from a data URL"')}`
on('.data', async () => {
  const { msg } = await import(/* @vite-ignore */ dataURL)
  show('.view', msg)
})

on('.css', async () => {
  await import('../css/index.css')
  show('.view', 'dynamic import css')
})

on('.pkg-css', async () => {
  await import('./deps')
  show('.view', 'dynamic import css in package')
})

let base = 'hello'
import(`../alias/${base}.js`).then((mod) => show('.vars', mod.hello()))


// prettier-ignore
import(
  /* a comment ) before */
  `../alias/${base}.js`
  /* and after */
).then((mod) => show('.vars-multiline', mod.hello()))

import(`../alias/${base}.js?raw`).then((mod) => show('.vars-raw', JSON.stringify(mod)))

base = 'url'
import(`../alias/${base}.js?url`).then((mod) => show('.vars-url', JSON.stringify(mod)))

base = 'worker'
import(`../alias/${base}.js?worker`).then((mod) => {
  const worker = new mod.default()
  worker.addEventListener('message', (ev) => show('.vars-worker', JSON.stringify(ev.data)))
  worker.postMessage('go')
})

base = 'hi'
import(`@/${base}.js`).then((mod) => show('.vars-alias', mod.hi()))
import(`#alias/${base}.js`).then((mod) => show('.vars-subpath', mod.hi()))

base = 'self'
import(`../nested/${base}.js`).then((mod) => show('.self', mod.self))
import(`../nested/nested/${base}.js`).then((mod) => show('.nested-self', mod.self))

;(async () => {
  const { foo } = await import('./treeshaken/shaken.js')
  const { bar, default: tree } = await import('./treeshaken/shaken.js')
  const default2 = (await import('./treeshaken/shaken.js')).default
  const baz1 = (await import('./treeshaken/shaken.js')).baz1
  const baz2 = (await import('./treeshaken/shaken.js')).baz2.log
  const baz3 = (await import('./treeshaken/shaken.js')).baz3?.log
  const baz4 = await import('./treeshaken/shaken.js').then(({ baz4 }) => baz4)
  const baz5 = await import('./treeshaken/shaken.js').then(function ({ baz5 }) {
      return baz5
    }),
    { baz6 } = await import('./treeshaken/shaken.js')
  foo()
  bar()
  tree()
  default2()
  baz1()
  baz2()
  baz3()
  baz4()
  baz5()
  baz6()
})()

;(async () => {
  const d1 = await import('./treeshaken/syntax.js').then((mod) => mod.default)
  const foo = await import('./treeshaken/syntax.js').then(({ foo = {} }) => foo)
  const e = ('' + window.notThere)[3]
  const foo2 = await import('./treeshaken/syntax.js')[`th${e}n`]((m) => m.foo)
  d1()
  foo()
  foo2()
})()

import('./then-css/outer.js').then((outer) => {
  show('.then-css-outer', outer.outer)
  return import('./then-css/inner.js').then((inner) => show('.then-css-inner', inner.inner))
})

import('./rest.js').then(({ a, ...rest }) => show('.rest', `${a} ${rest.b} ${rest.c}`))
