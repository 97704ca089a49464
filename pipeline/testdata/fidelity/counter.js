import { bump } from "./store.js";
bump("counter");
