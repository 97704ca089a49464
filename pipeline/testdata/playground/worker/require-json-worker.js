import pair from '@pg/w-json'

self.postMessage({ ok: true, content: JSON.stringify(pair) })
