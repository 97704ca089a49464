export const relative = import.meta.glob('./mod/*.js', { eager: true })
export const alias = import.meta.glob('@escape_[brackets]_mod/*.js', { eager: true })
