import './async-treeshaken.css'

const div = document.createElement('div')
div.className = 'async-treeshaken'
div.textContent = 'async treeshaken chunk (plum, and not in a production page)'
document.body.appendChild(div)
