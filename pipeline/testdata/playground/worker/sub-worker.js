self.onmessage = (e) => {
  if (e.data === 'ping') self.postMessage('sub-worker ' + self.location.href.slice(0, 5))
}
