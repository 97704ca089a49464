// An async module script: it runs when it is ready, in no promised order, sharing store.js.
import { seen } from "./store.js";
seen.add("late");
