import './inner.css'

export const inner = 'then-css-inner'
