export const msgMjs: string = '[success] mts by its mjs name'
