import plus from './+circle.svg'
import underscore from './_circle.svg'

for (const [sel, url] of [['.plus-circle', plus], ['.underscore-circle', underscore]]) {
  const el = document.querySelector(sel)
  el.style.backgroundImage = `url(${url})`
  el.textContent = url
}
