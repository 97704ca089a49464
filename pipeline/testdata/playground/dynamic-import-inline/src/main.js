import { say } from './say'

say('.static', 'imported')
import('./say.js').then(({ say }) => say('.dynamic', 'imported again'))
