// A module that counts its evaluations: each URL it is imported by is a module of its own.
window.instanceEvals = (window.instanceEvals ?? 0) + 1;
export const instance = {};
