module.exports = { test: '[cjs ok]' }
