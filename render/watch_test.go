package render

import "testing"

// TestFirstFrameIn: an Error logged is placed at its stack's first frame in the app's page,
// read as V8 writes a frame (stacks of Chromium): an async frame of a module's top-level code
// is one (passed over before, read as a script named "async https://…"); a frame of eval'd
// code is passed over for its caller; a function's name holding a place does not read as
// the frame's.
func TestFirstFrameIn(t *testing.T) {
	const url = "https://app.render.test/1/app.html"
	for _, row := range []struct {
		name, stack string
		line, col   int // 0: no frame in the page
	}{
		{"function", "Error: boom\n    at f (https://app.render.test/1/app.html:3:22)\n    at https://app.render.test/1/app.html:9:1", 3, 22},
		{"top_level", "Error: boom\n    at https://app.render.test/1/app.html:9:11", 9, 11},
		{"after_another_script", "Error: q (r)\n    at g (data:text/javascript,function g(){throw new Error('q (r)')} g():1:20)\n    at new C (https://app.render.test/1/app.html:4:27)", 4, 27},
		{"async_top_level", "Error: boom\n    at f (data:text/javascript,export async function f(){await 0;throw Error()}:1:40)\n    at async https://app.render.test/1/app.html:14:7", 14, 7},
		{"async_function", "Error: boom\n    at async Promise.all (index 0)\n    at async ag (https://app.render.test/1/app.html:12:23)", 12, 23},
		{"eval_at_caller", "Error: boom\n    at eval (eval at run (https://app.render.test/1/app.html:8:7), <anonymous>:1:1)\n    at run (https://app.render.test/1/app.html:8:7)", 8, 7},
		{"name_holding_a_place", "Error: d\n    at weird (https://app.render.test/1/app.html:1:2) (https://app.render.test/1/app.html:7:72)", 7, 72},
		{"builtin_then_page", "TypeError: x\n    at Array.map (<anonymous>)\n    at https://app.render.test/1/app.html:9:11", 9, 11},
		{"another_page", "Error: boom\n    at f (https://app.render.test/1/app.html?x:3:22)\n    at f (https://app.render.test/2/app.html:3:22)", 0, 0},
		{"no_stack", "Error: boom", 0, 0},
	} {
		t.Run(row.name, func(t *testing.T) {
			u, line, col, ok := firstFrameIn(row.stack, url)
			if ok != (row.line > 0) || line != row.line || col != row.col || ok && u != url {
				t.Errorf("firstFrameIn = %q, %d, %d, %v; want %s:%d:%d", u, line, col, ok, url, row.line, row.col)
			}
		})
	}
}
