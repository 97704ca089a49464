import './dep1.js'
import './dep2.js'

export function log(name) {
  document.getElementById('output').innerHTML += name + ' '
}

log('common')
