export const msg = '[success] the module condition'
