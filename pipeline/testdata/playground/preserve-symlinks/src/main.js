import { hello } from '@pg/linked-pkg'

document.getElementById('root').textContent = hello().text
