export const msg = '[success] exports take precedence over mainFields'
