import a from './dq-in-sq.svg'
import b from './dqs-in-sq.svg'
import c from './sq-in-dq.svg'
import d from './sqs-in-dq.svg'

for (const [id, url] of [['dq-in-sq', a], ['dqs-in-sq', b], ['sq-in-dq', c], ['sqs-in-dq', d]]) {
  document.getElementById(id).innerHTML = `<img class="${id}" src="${url}" alt="did not load">`
}
