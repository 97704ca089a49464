document.querySelector('.external-path').textContent = 'works'
