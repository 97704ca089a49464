export const which = '[success] a, by tsconfig.a.json'
