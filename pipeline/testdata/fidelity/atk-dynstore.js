// import() of the module another module script imports statically: the same module, once.
const m = await import("./store.js");
m.bump("dynamic");
