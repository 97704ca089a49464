import { bump } from "./store.js";

bump("file nomodule");
