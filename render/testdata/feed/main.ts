// Fetches its declared feed at load, and a file of an allowed wildcard origin with a header
// (a preflight), and shows what came back.
const root = document.getElementById("root")!;
const show = (r: Response) => (r.ok ? r.text() : Promise.resolve("status " + r.status));
const done = Promise.all([
  fetch("https://api.example.com/feed.json?since=1").then(show),
  fetch("https://img.cdn.example/list/", { headers: { "X-Feed": "1" } }).then(show),
]).then(([feed, list]) => (root.textContent = feed.trim() + " | " + list.trim()));

document.modelContext.registerTool({
  name: "state",
  description: "What the page shows.",
  inputSchema: { type: "object", properties: {} },
  execute: async () => (await done, root.textContent ?? ""),
});
