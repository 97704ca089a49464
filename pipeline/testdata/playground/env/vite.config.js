// The config sets a variable of the builder's environment that .env expands, as a config may.
process.env.PG_FROM_CONFIG = 'set by the config'

export default {
  base: '/env-base/',
  envPrefix: ['VITE_', 'PG_PUBLIC_'],
  define: {
    'import.meta.env.VITE_FLAG': true,
    'import.meta.env.VITE_COUNT': '42',
    'import.meta.env.VITE_WEIRD': JSON.stringify('{"4",}'),
    'import.meta.env.VITE_PAIR': JSON.stringify({ x: '1', y: '2' }),
  },
}
