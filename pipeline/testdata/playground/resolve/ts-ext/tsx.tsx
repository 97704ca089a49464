export const msgTsx: string = '[success] tsx by its js name'
