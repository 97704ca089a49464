import './eager.js'

const link = document.head.appendChild(document.createElement('link'))
link.rel = 'preload'
link.as = 'style'
link.href = new URL('./lazy.css', import.meta.url).href

import('./lazy.js').then(async ({ load }) => {
  await load()
})
