import "./atk-lazyasset.css";

export const seen = getComputedStyle(document.getElementById("lazyasset")).backgroundImage.slice(0, 10);
