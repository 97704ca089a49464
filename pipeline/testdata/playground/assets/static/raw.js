document.querySelector('.raw-js').textContent = '[success] a classic script of the public folder'
