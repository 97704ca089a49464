export const msg = '[success] a package folder inside the app'
