export const msg = '[success] a package whose package.json starts with a BOM'
