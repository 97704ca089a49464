document.querySelector('.relative-input').textContent = 'OK'
