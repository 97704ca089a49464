self.onmessage = () => self.postMessage("inner, url " + (import.meta.url.startsWith("blob:")));
