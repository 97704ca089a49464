module.exports.content = require('./content.json')
