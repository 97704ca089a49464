import { createButton } from './base.js'
import './async-2.css'

createButton('async-green')
