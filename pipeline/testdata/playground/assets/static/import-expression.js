document.querySelector('.import-expression').textContent += '[success]'
