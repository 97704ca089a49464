import { v } from "./tla-shared.js";
import { bump } from "./store.js";

bump("c " + v);
