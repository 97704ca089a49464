export const file = '[success] not the folder dir-with-ext.js'
