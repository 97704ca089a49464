import './css-js-dep.css'
export const ok = true
