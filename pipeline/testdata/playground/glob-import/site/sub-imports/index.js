export const globbed = import.meta.glob('#imports/*', { eager: true })
