export const msg = '[success] imports field: a nested path'
