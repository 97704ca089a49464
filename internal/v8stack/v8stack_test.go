package v8stack

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseFrame: each shape of frame V8 writes, as Node 20 and Chromium wrote it (paths and
// URLs holding spaces and parentheses, eval origins, async frames, builtins), and lines that
// are no frame.
func TestParseFrame(t *testing.T) {
	type P = Place
	for _, row := range []struct {
		name, line string
		ok         bool
		want       Frame
		place      string // line[Place.Start:Place.End]
	}{
		{"function", "    at f (/tmp/app/a.js:1:22)", true, Frame{Function: "f", Place: P{Script: "/tmp/app/a.js", Line: 1, Column: 22}}, "/tmp/app/a.js:1:22"},
		{"top_level", "    at /tmp/app/a.js:11:21", true, Frame{Place: P{Script: "/tmp/app/a.js", Line: 11, Column: 21}}, "/tmp/app/a.js:11:21"},
		{"new", "    at new C (/tmp/app/a.js:2:27)", true, Frame{Function: "new C", Place: P{Script: "/tmp/app/a.js", Line: 2, Column: 27}}, "/tmp/app/a.js:2:27"},
		{"as_name", "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)", true,
			Frame{Function: "Function.executeUserEntryPoint [as runMain]", Place: P{Script: "node:internal/modules/run_main", Line: 164, Column: 12}}, "node:internal/modules/run_main:164:12"},
		{"node_internal_top_level", "    at node:internal/main/run_main_module:28:49", true, Frame{Place: P{Script: "node:internal/main/run_main_module", Line: 28, Column: 49}}, "node:internal/main/run_main_module:28:49"},
		{"path_with_parens_and_spaces", "    at f (/tmp/st28/p (1)/a b.js:1:22)", true, Frame{Function: "f", Place: P{Script: "/tmp/st28/p (1)/a b.js", Line: 1, Column: 22}}, "/tmp/st28/p (1)/a b.js:1:22"},
		{"path_with_parens_top_level", "    at /tmp/st28/p (1)/a b.js:11:21", true, Frame{Place: P{Script: "/tmp/st28/p (1)/a b.js", Line: 11, Column: 21}}, "/tmp/st28/p (1)/a b.js:11:21"},
		{"name_with_open_paren", "    at a (b (/tmp/st28/p (1)/a b.js:5:32)", true, Frame{Function: "a (b", Place: P{Script: "/tmp/st28/p (1)/a b.js", Line: 5, Column: 32}}, "/tmp/st28/p (1)/a b.js:5:32"},
		{"name_with_a_place", "    at weird (x:1:2) (file:///tmp/st28/p%20(1)/main.mjs:7:72)", true,
			Frame{Function: "weird (x:1:2)", Place: P{Script: "file:///tmp/st28/p%20(1)/main.mjs", Line: 7, Column: 72}}, "file:///tmp/st28/p%20(1)/main.mjs:7:72"},
		{"file_url_query_hash", "    at Module.f (file:///tmp/st28/p%20(1)/m.mjs?t=1#h:1:29)", true,
			Frame{Function: "Module.f", Place: P{Script: "file:///tmp/st28/p%20(1)/m.mjs?t=1#h", Line: 1, Column: 29}}, "file:///tmp/st28/p%20(1)/m.mjs?t=1#h:1:29"},
		{"page_url_query", "    at f (http://localhost:5173/?v=3:3:22)", true, Frame{Function: "f", Place: P{Script: "http://localhost:5173/?v=3", Line: 3, Column: 22}}, "http://localhost:5173/?v=3:3:22"},
		{"async_function", "    at async ag (file:///tmp/st28/p%20(1)/page.html?q=1:12:23)", true,
			Frame{Async: true, Function: "ag", Place: P{Script: "file:///tmp/st28/p%20(1)/page.html?q=1", Line: 12, Column: 23}}, "file:///tmp/st28/p%20(1)/page.html?q=1:12:23"},
		{"async_top_level", "    at async file:///tmp/st28/p%20(1)/main.mjs:10:7", true,
			Frame{Async: true, Place: P{Script: "file:///tmp/st28/p%20(1)/main.mjs", Line: 10, Column: 7}}, "file:///tmp/st28/p%20(1)/main.mjs:10:7"},
		{"function_named_async", "    at async (/tmp/a.js:1:2)", true, Frame{Function: "async", Place: P{Script: "/tmp/a.js", Line: 1, Column: 2}}, "/tmp/a.js:1:2"},
		{"promise_all", "    at async Promise.all (index 0)", true, Frame{Async: true, Function: "Promise.all"}, ""},
		{"builtin", "    at Array.map (<anonymous>)", true, Frame{Function: "Array.map", Place: P{Script: "<anonymous>"}}, "<anonymous>"},
		{"native", "    at Array.forEach (native)", true, Frame{Function: "Array.forEach", Place: P{Script: "native"}}, "native"},
		{"anonymous_script", "    at <anonymous>:1:7", true, Frame{Place: P{Script: "<anonymous>", Line: 1, Column: 7}}, "<anonymous>:1:7"},
		{"eval", "    at eval (eval at <anonymous> (/tmp/st28/p (1)/a b.js:8:7), <anonymous>:1:1)", true,
			Frame{Function: "eval", Place: P{Script: "<anonymous>", Line: 1, Column: 1}, EvalAt: P{Script: "/tmp/st28/p (1)/a b.js", Line: 8, Column: 7}}, "<anonymous>:1:1"},
		{"eval_in_eval", "    at eval (eval at <anonymous> (eval at run (file:///tmp/p%20(1)/page.html?q=1:8:7)), <anonymous>:1:1)", true,
			Frame{Function: "eval", Place: P{Script: "<anonymous>", Line: 1, Column: 1}, EvalAt: P{Script: "file:///tmp/p%20(1)/page.html?q=1", Line: 8, Column: 7}}, "<anonymous>:1:1"},
		{"eval_unknown_source", "    at eval (eval at <anonymous> (unknown source), <anonymous>:1:1)", true,
			Frame{Function: "eval", Place: P{Script: "<anonymous>", Line: 1, Column: 1}}, "<anonymous>:1:1"},
		{"eval_source_url", "    at eval (my(src).js:1:19)", true, Frame{Function: "eval", Place: P{Script: "my(src).js", Line: 1, Column: 19}}, "my(src).js:1:19"},
		{"node_eval", "    at [eval]:1:7", true, Frame{Place: P{Script: "[eval]", Line: 1, Column: 7}}, "[eval]:1:7"},
		{"data_url", "    at g (data:text/javascript,function g(){throw new Error('q (r)')} g():1:20)", true,
			Frame{Function: "g", Place: P{Script: "data:text/javascript,function g(){throw new Error('q (r)')} g()", Line: 1, Column: 20}}, "data:text/javascript,function g(){throw new Error('q (r)')} g():1:20"},
		{"data_url_top_level", "    at data:text/javascript,function g(){throw new Error('q (r)')} g():1:40", true,
			Frame{Place: P{Script: "data:text/javascript,function g(){throw new Error('q (r)')} g()", Line: 1, Column: 40}}, "data:text/javascript,function g(){throw new Error('q (r)')} g():1:40"},
		{"windows_path", `    at f (C:\Users\me\app (2)\a.js:3:4)`, true, Frame{Function: "f", Place: P{Script: `C:\Users\me\app (2)\a.js`, Line: 3, Column: 4}}, `C:\Users\me\app (2)\a.js:3:4`},
		{"windows_path_top_level", `    at C:\Users\me\a.js:3:4`, true, Frame{Place: P{Script: `C:\Users\me\a.js`, Line: 3, Column: 4}}, `C:\Users\me\a.js:3:4`},
		{"line_without_column", "    at f (/tmp/a.js:12)", true, Frame{Function: "f", Place: P{Script: "/tmp/a.js", Line: 12}}, "/tmp/a.js:12"},
		{"long_line", "    at f (https://app.render.test/1/x.html:2:1048577)", true,
			Frame{Function: "f", Place: P{Script: "https://app.render.test/1/x.html", Line: 2, Column: 1048577}}, "https://app.render.test/1/x.html:2:1048577"},
		{"number_past_v8s", "    at f (/tmp/a.js:1:99999999999)", true, Frame{Function: "f", Place: P{Script: "/tmp/a.js:1:99999999999"}}, "/tmp/a.js:1:99999999999"},
		{"signed_number", "    at f (/tmp/a.js:+1:-2)", true, Frame{Function: "f", Place: P{Script: "/tmp/a.js:+1:-2"}}, "/tmp/a.js:+1:-2"},
		{"wasm", "    at wasm://wasm/0145fffe:wasm-function[0]:0x1e", true, Frame{Place: P{Script: "wasm://wasm/0145fffe"}}, "wasm://wasm/0145fffe:wasm-function[0]:0x1e"},
		{"wasm_named", "    at f (wasm://wasm/0145fffe:wasm-function[0]:0x1e)", true, Frame{Function: "f", Place: P{Script: "wasm://wasm/0145fffe"}}, "wasm://wasm/0145fffe:wasm-function[0]:0x1e"},
		{"crlf_and_tab", "\tat f (/tmp/a.js:1:2)\r\n", true, Frame{Function: "f", Place: P{Script: "/tmp/a.js", Line: 1, Column: 2}}, "/tmp/a.js:1:2"},
		// V8's text is ambiguous here: the place is read as the last group whose parentheses
		// match, which a script name with an unmatched "(" breaks.
		{"path_with_unmatched_paren", "    at f (/tmp/a (b/c.js:1:2)", true, Frame{Function: "f (/tmp/a", Place: P{Script: "b/c.js", Line: 1, Column: 2}}, "b/c.js:1:2"},
		{"message", "Error: x", false, Frame{}, ""},
		{"message_at", "TypeError: cannot read at", false, Frame{}, ""},
		{"empty", "", false, Frame{}, ""},
		{"source_context", "            ^", false, Frame{}, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			got, ok := ParseFrame(row.line)
			placed := got.Place.Start != 0 || got.Place.End != 0
			got.Place.Start, got.Place.End, got.EvalAt.Start, got.EvalAt.End = 0, 0, 0, 0
			if ok != row.ok || got != row.want {
				t.Fatalf("ParseFrame(%q) = %+v, %v; want %+v, %v", row.line, got, ok, row.want, row.ok)
			}
			f, _ := ParseFrame(row.line)
			if row.place != "" && row.line[f.Place.Start:f.Place.End] != row.place || row.place == "" && placed {
				t.Errorf("the place's bytes are %q, want %q", row.line[f.Place.Start:f.Place.End], row.place)
			}
			if f.EvalAt.Script != "" && row.line[f.EvalAt.Start:f.EvalAt.End] != f.EvalAt.Script+":8:7" {
				t.Errorf("the eval origin's bytes are %q", row.line[f.EvalAt.Start:f.EvalAt.End])
			}
		})
	}
}

// TestParsePlace: a place alone, as SpiderMonkey and JavaScriptCore write one after "@".
func TestParsePlace(t *testing.T) {
	for _, row := range []struct {
		s    string
		want Place
	}{
		{"http://localhost:5173/?v=3:1:23", Place{Script: "http://localhost:5173/?v=3", Line: 1, Column: 23}},
		{"eng.js line 4 > eval:1:1", Place{Script: "eng.js line 4 > eval", Line: 1, Column: 1}},
		{"[native code]", Place{Script: "[native code]"}},
		{"", Place{}},
	} {
		row.want.End = len(row.s)
		if got := ParsePlace(row.s); got != row.want {
			t.Errorf("ParsePlace(%q) = %+v, want %+v", row.s, got, row.want)
		}
	}
}

// TestParseFrameLikeV8 has Node make frames of each shape (in files under a folder named
// "app (1)", a CommonJS one named with a space, an ES module imported with a query and a
// hash: functions, methods, [as], new, computed names holding parentheses, eval, eval in
// eval, new Function, a sourceURL, builtins, async frames, Promise.all, a data: URL, a
// column past 100,000, WebAssembly) and holds ParseFrame of each frame's text, as V8 writes it
// (CallSite's toString, the line of Error.prototype.stack), to what V8 says of the frame: its
// script's name or sourceURL, line, column, whether it is async.
func TestParseFrameLikeV8(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found: ./scripts/test installs it (apt-get install nodejs)")
	}
	dir := filepath.Join(t.TempDir(), "app (1)")
	long := strings.Repeat(" ", 100_000)
	files := map[string]string{
		"a b.cjs": `function f() { throw new Error("x") }
class C { constructor() { f() } m() { new C() } }
const o = { g() { new C().m() } }; o.h = o.g;
const weird = { ["a (b"]() { o.h() }, ["c) ("]() { f() } };
const named = function () { f() }; Object.defineProperty(named, "name", { value: "weird (x:1:2)" });
exports.shapes = [
  () => weird["a (b"](), () => weird["c) ("](), named,
  () => eval("eval('f()')"), () => new Function("a", "throw new Error(a)")("x"),
  () => eval("f()\n//# sourceURL=my(src).js"), () => eval("f()\n//# sourceURL=/abs/with:colon.js"),
  () => [1].map(() => f()), () => { JSON.parse("[1]", function reviver() { f() }) },
  () => {` + long + `throw new Error("far") },
];
async function af() { await null; f() }
exports.later = [() => Promise.all([af()]), async () => { await Promise.allSettled([1]); await af() }];
`,
		"m.mjs": "export function f() { throw new Error(\"m\") }\n",
		"main.mjs": `import { createRequire } from "node:module";
const rows = [];
Error.stackTraceLimit = 50;
Error.prepareStackTrace = (e, sites) => sites.map((s) => ({
  text: "    at " + s.toString(), script: s.getScriptNameOrSourceURL() || "<anonymous>", line: s.getLineNumber() ?? 0,
  column: s.getColumnNumber() ?? 0, async: s.isAsync(), all: s.getPromiseIndex() !== null,
}));
const take = (e) => { if (!Array.isArray(e.stack)) throw e; rows.push(...e.stack) };
const probe = (fn) => { try { fn() } catch (e) { take(e) } };
const { shapes, later } = createRequire(import.meta.url)("./a b.cjs");
shapes.forEach(probe);
const m = await import("./m.mjs?t=1#h");
probe(() => m.f());
await null;
probe(() => m.f());
for (const fn of later) await fn().catch(take);
await import("data:text/javascript,function g(){throw new Error('q (r)')} g()").catch(take);
const wasm = new Uint8Array([0,0x61,0x73,0x6d,1,0,0,0, 1,4,1,0x60,0,0, 3,2,1,0, 7,5,1,1,0x66,0,0, 0x0a,5,1,3,0,0,0x0b]);
probe(() => new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports.f());
process.stdout.write(JSON.stringify(rows));
`,
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(node, filepath.Join(dir, "main.mjs")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var frames []struct {
		Text, Script string
		Line, Column int
		Async, All   bool
	}
	if err := json.Unmarshal(out, &frames); err != nil {
		t.Fatal(err)
	}
	shapes := map[string]bool{}
	for _, v8 := range frames {
		want := Frame{Async: v8.Async, Place: Place{Script: v8.Script, Line: v8.Line, Column: v8.Column}}
		switch {
		case v8.All:
			want.Place = Place{}
		case strings.Contains(v8.Text, ":wasm-function["):
			want.Place.Line, want.Place.Column = 0, 0 // read as the script alone
		}
		f, ok := ParseFrame(v8.Text)
		if !ok || f.Async != want.Async || f.Place.Script != want.Place.Script || f.Place.Line != want.Place.Line || f.Place.Column != want.Place.Column {
			t.Errorf("ParseFrame(%q) = %+v, %v; V8's frame: %+v", v8.Text, f, ok, want)
		}
		if strings.HasSuffix(v8.Text, ")") && f.Function == "" {
			t.Errorf("ParseFrame(%q): no function", v8.Text)
		}
		shapes[strings.Fields(v8.Text)[1]] = true
	}
	t.Logf("%d frames", len(frames))
	for _, s := range []string{"async", "new", "eval", "a", "c)", "weird", "Array.map"} {
		if !shapes[s] {
			t.Errorf("Node made no frame starting %q", s)
		}
	}
}
