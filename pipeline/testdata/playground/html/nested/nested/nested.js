import { msg } from '../shared.js'
import '../common.css'

console.log(msg + ' from nested')
