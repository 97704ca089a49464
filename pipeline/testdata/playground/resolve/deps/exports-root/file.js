export const msg = '[success] exports read from the root package.json'
