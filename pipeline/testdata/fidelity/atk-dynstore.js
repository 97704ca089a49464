// import() of the module another module script imports statically: the same module, once,
// given after a task. A chain of 100 microtasks starts before it: a promise resolved in
// microtasks (esbuild's) resolves amid the chain, one resolved after a task when the chain has
// ended, since a task waits for every microtask. The act reads window.dynamic: what the page
// saw then (the log the static import wrote, the store evaluated once), which the fingerprint
// at load does not hold, as whether the import() resolved before load is Chromium's choice.
let chain = 0;
const spin = () => {
  if (++chain < 100) queueMicrotask(spin);
};
spin();
let seen;
window.dynamic = new Promise((resolve) => {
  seen = resolve;
});
const m = await import("./store.js");
seen({ microtasks: chain, log: [...m.log], storeEvals: window.storeEvals });
