document.querySelector('.relative-js').textContent = 'hello'
