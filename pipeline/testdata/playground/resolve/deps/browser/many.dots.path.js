throw new Error('left out')
