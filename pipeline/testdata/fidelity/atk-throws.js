// A module that throws while it is evaluated: every import() of it rejects with that error
// (the module record keeps it), the second as the first. Its top-level this is undefined.
window.throwsEvals = (window.throwsEvals ?? 0) + 1;
window.throwsThis = typeof this;
throw new Error("throws.js failed");
