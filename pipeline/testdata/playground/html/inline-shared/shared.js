import './dep3.js'
import { log } from './common.js'

log('shared')
