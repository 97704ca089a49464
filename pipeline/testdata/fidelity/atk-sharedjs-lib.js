import "./atk-shared.css";

export const lib = "lib ";
