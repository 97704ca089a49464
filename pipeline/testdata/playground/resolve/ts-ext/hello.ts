export const msg: string = '[success] a ts module imports a ts module by its js name'
