import styles from './a.module.css'
export const a = styles['treeshake-module-a']
