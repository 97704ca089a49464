export default { plugins: { "postcss-nesting": {} } };
