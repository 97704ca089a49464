export const msg = '[success] the exports field entry'
