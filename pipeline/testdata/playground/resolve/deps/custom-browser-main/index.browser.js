export const msg = 'resolved browser field'
