export const msgJsx: string = '[success] tsx by its jsx name'
