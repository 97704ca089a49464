(window.__SIDE_EFFECT ||= []).push('dropped')
export const unused = 1
