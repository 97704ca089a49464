/*! a legal comment */
export const word = "minified"
