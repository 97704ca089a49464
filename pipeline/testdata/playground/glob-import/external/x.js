export const msg = 'external x'
