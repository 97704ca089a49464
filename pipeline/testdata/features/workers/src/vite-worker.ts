import { square } from "./square";
self.onmessage = (e: MessageEvent<number>) => self.postMessage("vite " + square(e.data));
