import ViteWorker from "./vite-worker.ts?worker";
const ask = (w: Worker, n: number) => new Promise<string>((resolve, reject) => { w.onmessage = (e) => resolve(e.data); w.onerror = (e) => reject(e.message); w.postMessage(n); });
const module = new Worker(new URL("./module-worker.ts", import.meta.url), { type: "module" });
const classic = new Worker(new URL("./classic-worker.ts", import.meta.url));
(window as any).result = await Promise.all([ask(module, 3), ask(classic, 4), ask(new ViteWorker(), 5)]);
