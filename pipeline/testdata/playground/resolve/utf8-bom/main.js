export const msg = '[success] a file that starts with a BOM'
