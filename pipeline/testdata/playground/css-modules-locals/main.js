import styles from './names.module.css'

// Which names the module exports, each with the class it stands for (the same class for a
// name and its camel case).
const byClass = {}
for (const [name, cls] of Object.entries(styles)) (byClass[cls] ??= []).push(name)
document.querySelector('.keys').textContent = JSON.stringify(Object.values(byClass).map((n) => n.sort()).sort())
document.querySelector('.by-camel').classList.add(styles.applyColor)
