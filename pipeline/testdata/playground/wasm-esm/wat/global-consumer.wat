;; global-consumer.wasm: reads the globals of global.wasm.
(module
  (import "./global.wasm" "answer" (global $answer i32))
  (import "./global.wasm" "counter" (global $counter (mut i32)))
  (func (export "getAnswerPlusOne") (result i32) (i32.add (global.get $answer) (i32.const 1)))
  (func (export "readCounter") (result i32) (global.get $counter)))
