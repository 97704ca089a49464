// Two plugins of the app's own: one writes a value (magic-pink is pink), one injects a url()
// through the config's alias, as Vite's playground's do with postcss-nested and its own.
export default {
  plugins: [
    {
      postcssPlugin: 'pg-magic-color',
      Declaration: {
        color(decl) {
          if (decl.value === 'magic-pink') decl.value = 'pink'
        },
      },
    },
    {
      postcssPlugin: 'pg-inject-url',
      Rule(rule) {
        if (rule.selector === '.inject-url' && !rule.some((n) => n.prop === 'background-image')) {
          rule.append({ prop: 'background-image', value: 'url(=/images/dog.png)' })
        }
      },
    },
  ],
}
