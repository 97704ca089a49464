// The page's default Trusted Types policy, made before any other script of the page runs: it
// records every string a sink gives it. The browser calls it for no script the parser runs.
window.ttLog = [];
trustedTypes.createPolicy("default", {
  createHTML: (s) => (window.ttLog.push("html"), s),
  createScript: (s) => (window.ttLog.push("script " + s.slice(0, 20)), s),
  createScriptURL: (s) => (window.ttLog.push("url " + s.slice(0, 20)), s),
});
