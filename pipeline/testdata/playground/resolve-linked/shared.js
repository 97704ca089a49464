export const msg = '[success] a linked package of the workspace'
