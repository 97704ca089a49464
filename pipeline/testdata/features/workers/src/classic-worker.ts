import { square } from "./square";
self.onmessage = (e: MessageEvent<number>) => self.postMessage("classic " + square(e.data));
