document.querySelector('.side-effect-result').textContent = 'side effect ran'
