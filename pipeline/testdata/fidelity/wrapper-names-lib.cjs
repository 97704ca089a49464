module.exports = { twice: (n) => n * 2, name: typeof module };
