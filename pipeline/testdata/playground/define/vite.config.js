// Each form of define Vite takes: a string is an expression, any other value is written as
// its JSON; keys may be dotted paths, $-names and non-ASCII names.
export default {
  define: {
    __FLAG__: 'false',
    __WORD__: '"hi there"',
    __COUNT__: 7,
    __ON__: true,
    __NOTHING__: undefined,
    __SHAPE__: { a: 1, b: { c: [2, 3] }, process: { env: { WHO: '"inside a shape"' } } },
    'process.env.NODE_ENV': '"staging"',
    'process.env.WHO': '"someone"',
    'process.env': { NODE_ENV: 'staging', WHO: 'someone', MORE: 'yes' },
    $CASH: 11,
    ÅNGSTRÖMɵ: 12,
    __SHADOWED__: false,
    __STRINGIFIED__: JSON.stringify({ on: true }),
    'import.meta.env.SOME_NAME': '__PG_SOME_NAME__',
  },
  environments: {
    client: { define: { __CLIENT_ONLY__: '"for the client"' } },
  },
}
