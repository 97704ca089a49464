import styles from "./Button.module.css";
const b = document.createElement("button");
b.id = "b";
b.className = `${styles.button} ${styles.primary}`;
b.textContent = "Styled";
document.getElementById("root")!.append(b);
(window as any).result = { classes: b.className };
