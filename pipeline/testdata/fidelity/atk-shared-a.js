import "./atk-own-a.css";
import "./atk-shared.css";

export const seen = getComputedStyle(document.getElementById("shared")).color;
