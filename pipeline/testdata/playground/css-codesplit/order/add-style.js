const style = document.createElement('style')
style.textContent = '.order { color: orange; }'
document.head.appendChild(style)
