import { hello } from './relative.js'
document.querySelector('.relative-js').textContent = hello
