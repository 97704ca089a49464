import depCjs from '@pg/w-cjs'
import { mode, msg } from './modules/common.js'
import logo from './logo.svg'

const metaUrl: string = import.meta.url

self.onmessage = (e: MessageEvent) => {
  const reply = { msg: e.data === 'ping-unicode' ? '•pong•' : msg, mode, logo, metaUrl, name: self.name, depCjs }
  self.postMessage(reply)
}
