self.onmessage = () => self.postMessage("worker from a variable import");
