export const which = '[success] b, by tsconfig.b.json'
