import { bump } from "./store.js";

bump("a start");
// Released by the row's interaction: until then the scripts after this one have run.
await new Promise((r) => { window.releaseA = r; });
bump("a end");
