// A worker that starts itself: built once, it starts its own URL.
self.onmessage = (e: MessageEvent<number>) => {
  if (e.data > 0) {
    const child = new Worker(new URL("./self.ts", import.meta.url));
    child.onmessage = (m) => self.postMessage(m.data + 1);
    child.postMessage(e.data - 1);
  } else {
    self.postMessage(0);
  }
};
