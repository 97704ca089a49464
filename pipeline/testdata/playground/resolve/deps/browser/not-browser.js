throw new Error('a module the browser field leaves out ran')
