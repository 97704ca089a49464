import init from "./add.wasm?init";
const viaInit = await init({});
const { instance } = await WebAssembly.instantiateStreaming(fetch(new URL("./add.wasm", import.meta.url)));
(window as any).result = [(viaInit.exports.add as (a: number, b: number) => number)(2, 3), (instance.exports.add as (a: number, b: number) => number)(40, 2)];
