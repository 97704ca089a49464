;; with-imports.wasm: imports a function of a JS module, as an ES module would.
(module
  (import "./imports.js" "setResult" (func $set (param i32)))
  (func (export "exported_func") (call $set (i32.const 42))))
