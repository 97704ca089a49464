module.exports = [require('./a.json'), require('./b.json')]
