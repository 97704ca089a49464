import { lib } from "./atk-sharedjs-lib.js";

export const seen = lib + getComputedStyle(document.getElementById("shared")).color;
