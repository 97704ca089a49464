export const unicode = 'a file whose name is not ASCII'
