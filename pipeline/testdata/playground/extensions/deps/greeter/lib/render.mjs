export function render() { throw new Error("render.mjs: .mjs is not in resolve.extensions") }
