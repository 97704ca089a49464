export const foo = 'the ?url of a script'
