window.extra = { next: import.meta.resolve("./store.js").split("/").pop() };
