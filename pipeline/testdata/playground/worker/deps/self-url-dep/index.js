// A package whose worker starts a copy of itself by its own URL.
export function startWorker(onMessage) {
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
  w.addEventListener('message', onMessage)
  w.postMessage('main')
}
