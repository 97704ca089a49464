// This module's own URL: meta.js beside the page as written; the page itself once every
// module is in the page.
window.extra = { file: new URL(import.meta.url).pathname.split("/").pop() };
