import fs from 'node:fs'
import path from 'node:path'

const site = path.join(import.meta.dirname, 'site')

// An alias to each escape/<dir>/mod, whose name needs escaping in a glob.
const escapeAliases = Object.fromEntries(
  fs
    .readdirSync(path.join(site, 'escape'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => [`@escape_${d.name}_mod`, path.join(site, 'escape', d.name, 'mod')]),
)

export default {
  root: site,
  resolve: {
    alias: {
      ...escapeAliases,
      '@dir': path.join(site, 'dir'),
      '~dir': path.join(site, 'dir') + '/',
      '#alias': path.join(site, 'imports-path'),
    },
  },
}
