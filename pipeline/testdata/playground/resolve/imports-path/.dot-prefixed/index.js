export const msg = '[success] imports field: a folder whose name starts with a dot'
