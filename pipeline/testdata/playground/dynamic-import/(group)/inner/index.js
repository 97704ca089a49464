const base = 'main'
import(`../${base}.js`).then((mod) => {
  document.querySelector('.vars-parenthesis').textContent = mod.hello()
})
