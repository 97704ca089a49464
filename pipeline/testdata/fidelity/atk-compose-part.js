import styles from "./atk-compose.module.css";

const el = document.createElement("div");
el.className = styles.box;
document.documentElement.appendChild(el);
export const seen = getComputedStyle(document.getElementById("composed")).color;
export const box = [getComputedStyle(el).color, getComputedStyle(el).fontWeight];
