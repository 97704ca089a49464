import absolute from '/nested/asset.png'
import relative from './nested/asset.png'
import publicIcon from '/icon.png'
import publicJSON from '/foo.json?url'
import publicJS from '/raw.js?url'
import publicTS from '/raw.ts?url'
import fragmentURL from './nested/fragment.svg'
import unknown from './nested/foo.unknown'
import unknownInline from './nested/foo.unknown?inline'
import custom from './nested/relative-path.custom'
import customInline from './nested/relative-path.custom?inline'
import raw from './nested/raw.svg?raw'
import rawHTML from './nested/partial.html?raw'
import noInline from './nested/fragment-bg.svg?no-inline'
import noInlineQuery from './nested/fragment-bg.svg?no-inline&foo=bar'
import inlinePNG from './nested/icon.png?inline'
import inlinePublicPNG from '/icon.png?inline'
import inlinePublicJSON from '/foo.json?url&inline'
import fooURL from './foo.js?url'
import cssURL from './css/url-only.css?url'
import unicodeURL from './テスト-測試-white space.js?url'

const show = (sel, v) => (document.querySelector(sel).textContent = v)
show('.asset-import-relative', relative)
show('.asset-import-absolute', absolute)
show('.public-import', publicIcon)
show('.asset-import-typeof', typeof relative)
show('.public-json-import', publicJSON)
fetch(publicJSON).then((r) => r.text()).then((t) => show('.public-json-import-content', t))
show('.public-js-import', publicJS)
fetch(publicJS).then((r) => {
  show('.public-js-import-content-type', r.headers.get('content-type'))
  return r.text()
}).then((t) => show('.public-js-import-content', t))
show('.public-ts-import', publicTS)
fetch(publicTS).then((r) => r.text()).then((t) => show('.public-ts-import-content', t))
document.querySelector('.svg-frag-import').src = fragmentURL + '#icon-heart-view'
show('.unknown-ext', unknown)
show('.unknown-ext-inline', unknownInline)
show('.relative-path-assets-include', custom)
show('.relative-path-assets-include-inline', customInline)
show('.raw', raw)
show('.raw-html', rawHTML)
show('.no-inline-svg', noInline)
show('.no-inline-svg-mp', noInlineQuery)
show('.inline-png', inlinePNG)
show('.inline-public-png', inlinePublicPNG)
show('.inline-public-json', inlinePublicJSON)
show('.url', fooURL)
show('.url-css', cssURL)
show('.unicode-url', unicodeURL)

const metaURL = new URL('./import-meta-url/img.png', import.meta.url)
show('.import-meta-url', metaURL)
show('.import-meta-url-dep', new URL('@/asset.png', import.meta.url))
show('.import-meta-url-base-path', new URL('/icon.png', import.meta.url))
const dataURI = new URL('data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', import.meta.url)
document.querySelector('.import-meta-url-data-uri-img').src = dataURI
show('.import-meta-url-data-uri', dataURI)
const noExt = new URL('./nested/test', import.meta.url)
show('.import-meta-url-without-extension', noExt)
fetch(noExt).then((r) => r.text()).then((t) => show('.import-meta-url-content-without-extension', t))
const names = ['icon', 'asset']
show('.dynamic-import-meta-url-1', new URL(`./nested/${names[0]}.png`, import.meta.url))
show('.dynamic-import-meta-url-2', new URL(`./nested/${names[1]}.png`, import.meta.url))
const js = 'test'
show('.dynamic-import-meta-url-js', new URL(`./nested/${js}.js`, import.meta.url))
show('.dynamic-import-meta-url-1-query', new URL(`./nested/${names[0]}.png?abc`, import.meta.url))
show('.dynamic-import-meta-url-2-query', new URL(`./nested/${names[1]}.png?abc`, import.meta.url))
show('.dynamic-import-meta-url-1-ternary', new URL(`./nested/${1 === 0 ? 'failed' : names[0]}.png?abc`, import.meta.url))
show('.dynamic-import-meta-url-2-ternary', new URL(`./nested/${1 === 0 ? 'failed' : names[1]}.png?abc`, import.meta.url))
show('.non-existent-import-meta-url', new URL(/* @vite-ignore */ 'non-existent', import.meta.url).pathname)
show(
  '.import-meta-url-multiline',
  new URL(
    './nested/asset.png',
    import.meta.url, // a trailing comma
  ),
)
