export const msg = '[success] deep import with the exports field'
