import './outer.css'

export const outer = 'then-css-outer'
