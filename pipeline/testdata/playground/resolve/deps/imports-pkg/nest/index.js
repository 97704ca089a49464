export const msg = '[success] imports field: a folder of another package'
