export const msg = '[success] imports field: #/'
