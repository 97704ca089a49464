export const msg = '[success] imports field: top level'
