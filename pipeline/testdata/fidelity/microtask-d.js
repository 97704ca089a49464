// A classic script with defer: its microtasks too run before the next script.
window.extra.log.push("d sync");
Promise.resolve().then(() => Promise.resolve()).then(() => { window.fromD = "d's microtask ran"; });
