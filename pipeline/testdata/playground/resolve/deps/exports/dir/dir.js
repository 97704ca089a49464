export const msg = '[success] exports field + exposed dir'
