import { createButton } from './base.js'
import './async-1.css'

createButton('async-blue')
