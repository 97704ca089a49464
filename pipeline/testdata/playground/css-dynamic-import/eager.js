import './eager.css'

export const eager = true
