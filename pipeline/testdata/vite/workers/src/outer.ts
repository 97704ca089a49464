import Inner from "./inner.ts?worker";
// A worker that starts another.
self.onmessage = () => {
  const inner = new Inner();
  inner.onmessage = (m) => self.postMessage("outer got " + m.data + "; outer url " + (import.meta.url.startsWith("blob:")));
  inner.postMessage("go");
};
