import './dep2.js'
import { log } from './common.js'

log('dep3')
