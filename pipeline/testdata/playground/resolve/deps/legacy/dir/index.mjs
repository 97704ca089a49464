export const msg = '[success] exports and legacy fallback'
