import './lazy-js.css'
