document.querySelector('#app').innerHTML = `
  <h1 id="pagetitle" class="text-3xl text-violet-600">Page title</h1>
  <p id="view1-text" class="text-green-600">view1</p>
`
