;; light.wasm: calls imports.imported_func(42); small, so Vite inlines it.
(module
  (import "imports" "imported_func" (func $imported (param i32)))
  (func (export "exported_func") (call $imported (i32.const 42))))
