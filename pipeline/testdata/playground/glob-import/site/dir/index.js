const modules = import.meta.glob('./*.{js,ts}', { eager: true })
const globWithAlias = import.meta.glob('@dir/al*.js', { eager: true })

// negations, first or last
import.meta.glob(['@dir/*.js', '!@dir/x.js'])
import.meta.glob(['!@dir/x.js', '@dir/*.js'])

export { modules, globWithAlias }
