import "./atk-shared.css";

export const seen = getComputedStyle(document.getElementById("shared")).color;
