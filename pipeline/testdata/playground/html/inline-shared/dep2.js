import { log } from './common.js'

log('dep2')
