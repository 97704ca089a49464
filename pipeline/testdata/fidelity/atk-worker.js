import "./atk-worker-top.js";
postMessage(self.topThis);
