import { log } from './common.js'
import './dep2.js'

log('unique')
