const { n } = await import("./data.ts");
self.onmessage = () => self.postMessage(`module ${n} ${import.meta.url.startsWith("blob:")}`);
