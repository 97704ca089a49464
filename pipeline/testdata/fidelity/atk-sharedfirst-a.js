import "./atk-shared.css";
import "./atk-own-a.css";

export const seen = getComputedStyle(document.getElementById("shared")).color;
