window.extra = { tries: [] };
const attempt = () => import("./atk-throws.js").then(
  () => window.extra.tries.push("resolved"),
  (e) => window.extra.tries.push("rejected " + e.message),
);
// The row's interaction: import the module that throws, twice, one after the other.
window.loadTwice = () => attempt().then(attempt).then(() => { window.extra.evals = window.throwsEvals; window.extra.this = window.throwsThis; });
