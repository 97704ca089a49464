module.exports = '[success] exports and a nested package scope of another type'
