import { bump } from "./store.js";

bump("shared start");
await null;
bump("shared end");
export const v = 2;
