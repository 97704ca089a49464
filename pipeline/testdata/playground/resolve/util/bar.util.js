export const bar = '[success] a file name with a dot'
