import './effects/kept.js'
import { unused } from './dropped.js'
export const used = 1
