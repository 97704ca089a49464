document.title += ' ran'
