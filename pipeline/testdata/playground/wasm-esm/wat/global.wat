;; global.wasm: an immutable global answer = 42 and a mutable counter = 7 that bump adds 1 to.
(module
  (global $answer (export "answer") i32 (i32.const 42))
  (global $counter (export "counter") (mut i32) (i32.const 7))
  (func (export "bumpCounter")
    (global.set $counter (i32.add (global.get $counter) (i32.const 1)))))
