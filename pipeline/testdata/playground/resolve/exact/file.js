export const file = '[success] the exact extension'
