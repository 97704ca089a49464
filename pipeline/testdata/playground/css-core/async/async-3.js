import styles from './async-3.module.css'
import { createButton } from './base.js'

createButton(`${styles['async-pink']} modules-pink`)
