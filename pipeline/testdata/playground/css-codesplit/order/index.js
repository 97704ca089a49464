import './add-style.js' // a <style> the script adds: orange
import './base.css' // blue, before it

document.querySelector('.order-update').addEventListener('click', () => {
  import('./dynamic.css') // green, after it once loaded
})
