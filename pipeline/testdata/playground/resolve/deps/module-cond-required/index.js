const { msg } = require('@pg/r-module-cond')
module.exports = { msg }
