export const msg = '[success] imports field: a star'
