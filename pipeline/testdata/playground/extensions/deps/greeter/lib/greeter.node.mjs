export function mount() { throw new Error("the Node build") }
