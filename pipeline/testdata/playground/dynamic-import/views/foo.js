export const msg = 'Foo view'
