import { square } from "./square";
self.onmessage = (e: MessageEvent<number>) => self.postMessage("module " + square(e.data));
