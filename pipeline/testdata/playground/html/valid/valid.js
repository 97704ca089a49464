document.getElementById('no-quotes-on-attr').textContent += ' working'
