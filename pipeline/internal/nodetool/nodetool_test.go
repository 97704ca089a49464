package nodetool

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"
)

// TestCloseRemovesTemp: once Close returns, Node has exited and its private temporary folder
// is gone, so that a process that ends right after a build leaves nothing behind (every build
// with the path checks alone left a bundle-node-* folder in the system's temporary folder).
// Kill does the same.
func TestCloseRemovesTemp(t *testing.T) {
	for _, stop := range []struct {
		name string
		f    func(*Runner)
	}{{"close", (*Runner).Close}, {"kill", (*Runner).Kill}} {
		t.Run(stop.name, func(t *testing.T) {
			temp, dir := t.TempDir(), t.TempDir()
			r := New(dir, dir, temp)
			r.NoFence = true
			// A request that starts Node in any app folder, without what it needs: Node
			// answers with an error and waits for the next.
			r.Run(context.Background(), Request{Tool: "scopednames"})
			if left, _ := os.ReadDir(temp); len(left) != 1 {
				t.Fatalf("Node's temporary folder: %v, want one while Node runs", left)
			}
			stop.f(r)
			if left, _ := os.ReadDir(temp); len(left) != 0 {
				t.Errorf("%s returned with %v left in %s", stop.name, left, temp)
			}
		})
	}
}

// TestPermissionFlag: the flag that turns Node's permission model on, by Node's version: none
// before --allow-addons came (20.12, 21.6), which the CSS tools' native addons need.
func TestPermissionFlag(t *testing.T) {
	for v, want := range map[string]string{
		"v18.20.4": "", "v20.11.1": "", "v20.12.0": "--experimental-permission", "v20.20.2": "--experimental-permission",
		"v21.5.0": "", "v21.6.0": "--experimental-permission", "v22.12.0": "--experimental-permission", "v22.13.0": "--permission",
		"v23.4.0": "--experimental-permission", "v23.5.0": "--permission", "v24.1.0": "--permission", "": "", "vx": "",
	} {
		if got := permissionFlag(v); got != want {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
}

// TestModel: what holds the app's Node code where the kernel's fence is off, by the Node on
// PATH: its permission model from 20.12, else a note that names the version (a program named
// node that prints an older one stands for it), and nothing where no Node is on PATH.
func TestModel(t *testing.T) {
	old := t.TempDir()
	if err := os.WriteFile(filepath.Join(old, "node"), []byte("#!/bin/sh\necho v18.20.4\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []struct {
		name, path string
		held       bool
		why        string
	}{
		{"this_machine", filepath.Dir(real), true, ""},
		{"node_18", old, false, "Node v18.20.4 has no permission model"},
		{"no_node", t.TempDir(), false, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			t.Setenv("PATH", row.path)
			if held, why := Model(); held != row.held || why != row.why {
				t.Errorf("Model() = %v, %q; want %v, %q", held, why, row.held, row.why)
			}
		})
	}
}

// TestToolPackages holds ToolPackages to runner.mjs: every package the runner loads by name
// (load, compiler, find) is one of them or is loaded only once one of them has loaded (after),
// so that an app with none installed can run no tool (ToolInstalled, which decides whether
// bundle build's fence lets Node in).
func TestToolPackages(t *testing.T) {
	after := map[string]string{
		"@tailwindcss/oxide": "@tailwindcss/node", // tailwind(): loaded second
		"typescript":         "vue",               // vue(): a component's <script lang="ts">
		"vue/compiler-sfc":   "vue",               // vue(): its file, found once compiler() loaded it
	}
	calls := regexp.MustCompile(`\b(load|compiler|find)\("([^"]+)"(?:, "([^"]+)")?`).FindAllStringSubmatch(runner, -1)
	if len(calls) == 0 {
		t.Fatal("no load, compiler or find of a package found in runner.mjs")
	}
	for _, c := range calls {
		name := c[2]
		if c[1] == "compiler" {
			name = c[3] // the package; c[2] is its module
		}
		if slices.Contains(ToolPackages, name) {
			continue
		}
		if first, ok := after[name]; !ok || !slices.Contains(ToolPackages, first) {
			t.Errorf("runner.mjs's %s(%q) names a package that is not in ToolPackages: add it (or to this test's after, with the package the runner loads before it)", c[1], c[2])
		}
	}
}

// TestToolFirst holds toolFirst to runner.mjs: for each tool that loads a package, the first
// package its function loads (load, or compiler with the range it names), which is what Node
// says is not installed where no package of ToolPackages is (a Runner with NoNode says it).
func TestToolFirst(t *testing.T) {
	names := map[string]string{} // tool -> its function in runner.mjs
	for _, obj := range []string{"frameworkTools", "tools"} {
		m := regexp.MustCompile(`const ` + obj + ` = \{([^}]*)\}`).FindStringSubmatch(runner)
		if m == nil {
			t.Fatalf("no const %s in runner.mjs", obj)
		}
		for _, e := range strings.Split(m[1], ",") {
			e = strings.TrimSpace(e)
			if e == "" || strings.HasPrefix(e, "...") {
				continue
			}
			k, v, ok := strings.Cut(e, ":")
			k, v = strings.Trim(strings.TrimSpace(k), `"`), strings.TrimSpace(v)
			if !ok {
				v = k
			}
			names[k] = v
		}
	}
	first := regexp.MustCompile(`\b(?:load\("([^"]+)"|compiler\("[^"]+", "([^"]+)", \[[^\]]*\], "([^"]+)")`)
	for tool, fn := range names {
		start := strings.Index(runner, "\nasync function "+fn+"(")
		if start < 0 {
			t.Errorf("no function %s (tool %s) in runner.mjs", fn, tool)
			continue
		}
		body := runner[start:]
		body = body[:strings.Index(body, "\n}\n")]
		m := first.FindStringSubmatch(body)
		var got [2]string
		switch {
		case m == nil:
		case m[1] != "":
			got[0] = m[1]
		default:
			got = [2]string{m[2], m[2] + "@" + m[3]}
		}
		if want := toolFirst[tool]; got != want {
			t.Errorf("tool %s: runner.mjs's %s loads %q first, toolFirst says %q", tool, fn, got, want)
		}
	}
}

// TestStoppedByApp: the app's code that stops Node (process.reallyExit, a throwing
// uncaughtExceptionMonitor listener) fails the request in flight with a ToolError that says
// so, placed where Node's stack places it, and the next request starts another Node (every
// later request failed with "node stopped" before); process.exit under a request throws where
// it is called, and Node goes on.
func TestStoppedByApp(t *testing.T) {
	for _, row := range []struct {
		name, code string
		want       string
		line, col  int
		stops      bool // Node stops (else it goes on: process.exit throws where it is called)
	}{
		{"process_exit", "process.exit(3);\nexport default {};\n", "it ended Node (exit code 3)", 1, 9, false},
		{"really_exit", "process.reallyExit(3);\nexport default {};\n", "Node stopped while running it (exit status 3)", 0, 0, true},
		{"throwing_monitor", "process.on(\"uncaughtExceptionMonitor\", () => { throw new Error(\"monitor boom\"); });\nsetTimeout(() => { throw new Error(\"x\"); }, 0);\nawait new Promise((r) => setTimeout(r, 10));\nexport default {};\n",
			"Node stopped while running it (exit status 7): Error: monitor boom", 1, 54, true},
	} {
		t.Run(row.name, func(t *testing.T) {
			r, file := configRunner(t, row.code)
			fds := openFiles(t)
			_, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: row.code})
			var te *ToolError
			if !errors.As(err, &te) || te.Message != row.want || te.File != file || te.Line != row.line || te.Column != row.col {
				t.Fatalf("first request: %#v, want a ToolError %q at %s:%d:%d", err, row.want, file, row.line, row.col)
			}
			if row.stops {
				// Node's pipes are closed once it ended (the requests' pipe was left open until
				// the garbage collector closed it: this wait took 67 s).
				testwait.Until(t, "the stopped Node's pipes to be closed", func() bool { return openFiles(t) <= fds })
			}
			first := r.Pid()
			out, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: "export default { base: \"./\" };\n"})
			if err != nil || !strings.Contains(out, `"base":"./"`) {
				t.Fatalf("the next request: %q, %v; want the config", out, err)
			}
			if row.stops && r.Pid() == first {
				t.Errorf("the next request ran on Node %d, which had stopped", first)
			} else if !row.stops && r.Pid() != first {
				t.Errorf("the next request ran on another Node (%d, then %d): process.exit stopped the first", first, r.Pid())
			}
		})
	}
}

// TestAnswersAfterStdinTaken: a config that removes process.stdin's listeners (the runner read
// its requests from process.stdin) made every later request of the Node wait for ever.
func TestAnswersAfterStdinTaken(t *testing.T) {
	r, file := configRunner(t, "export default {};\n")
	defer r.Kill()
	if _, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: "process.stdin.removeAllListeners(\"data\");\nprocess.stdin.removeAllListeners(\"end\");\nprocess.stdin.pause();\nexport default {};\n"}); err != nil {
		t.Fatalf("first request: %v", err)
	}
	// Generous: Node answers in milliseconds; a runner that lost its input never does.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := r.Run(ctx, Request{Tool: "viteconfig", File: file, CSS: "export default { base: \"./\" };\n"})
	if err != nil || !strings.Contains(out, `"base":"./"`) {
		t.Fatalf("the next request: %q, %v; want the config", out, err)
	}
}

// TestTimeout: a request that has no answer in the Runner's Timeout (a config that loops, one
// that awaits a promise nothing settles) ends with a TimeoutError and Node is killed; a
// request in flight on that Node (which a loop keeps from answering) ends with a StoppedError
// whose Killed is set; the next request starts Node again (before, with no bound, each waited
// for ever).
func TestTimeout(t *testing.T) {
	for _, row := range []struct {
		name, code string
		blocks     bool // the request keeps Node from answering the next
	}{
		{"busy_loop", "for (;;) {}\nexport default {};\n", true},
		{"never_settles", "await new Promise(() => {});\nexport default {};\n", false},
	} {
		t.Run(row.name, func(t *testing.T) {
			r, file := configRunner(t, "export default {};\n")
			// Long enough for Node to start on a busy machine and answer the second request
			// where the first does not block it, short for a test.
			bound := testwait.Scaled(10 * time.Second)
			if row.blocks {
				bound = testwait.Scaled(5 * time.Second) // said the same however late Node starts
			}
			r.Timeout = bound
			hung := make(chan error, 1)
			go func() {
				_, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: row.code})
				hung <- err
			}()
			testwait.Until(t, "the request to be sent", func() bool {
				r.mu.Lock()
				defer r.mu.Unlock()
				return len(r.waiting) == 1
			})
			// A second request, sent after it with a bound that does not end first.
			r.mu.Lock()
			r.Timeout = testwait.Deadline()
			r.mu.Unlock()
			_, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: "export default {};\n"})
			var se *StoppedError
			if row.blocks && (!errors.As(err, &se) || !se.Killed) {
				t.Errorf("the request in flight: %#v, want a StoppedError, Killed", err)
			} else if !row.blocks && err != nil {
				t.Errorf("the request in flight: %v, want its answer", err)
			}
			var te *TimeoutError
			if err := <-hung; !errors.As(err, &te) || te.Tool != "viteconfig" || te.After != bound {
				t.Fatalf("the request that hangs: %#v, want a TimeoutError", err)
			}
			out, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: "export default { base: \"./\" };\n"})
			if err != nil || !strings.Contains(out, `"base":"./"`) {
				t.Fatalf("the next request: %q, %v; want the config", out, err)
			}
		})
	}
}

// TestStoppedPlace: a request in flight when the app's code stopped Node is placed at the
// first frame of Node's stack in a file of the root, read as V8 writes a frame (stacks of
// Node 20): a frame of eval'd code is placed at its caller, not in the eval origin's text
// (placed before in a file named "…vite.config.mjs:2:15), <anonymous>"); an async frame of a
// module's top-level code is one (passed over before); a function's name holding "(/" does not
// read as the place (passed over before).
func TestStoppedPlace(t *testing.T) {
	cmd := exec.Command("sh", "-c", "exit 7")
	cmd.Run()
	const root = "/work/my app (1)"
	const cfg = root + "/vite.config.mjs"
	for _, row := range []struct {
		name, stderr string
		file         string
		line, col    int
	}{
		{"commonjs_path", "Error: boom\n    at f (/work/my app (1)/vite.config.cjs:3:9)\n    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n", root + "/vite.config.cjs", 3, 9},
		{"module_url", "file:///work/my%20app%20(1)/vite.config.mjs:3\n  throw new Error(\"boom\");\n  ^\n\nError: boom\n    at load (file:///work/my%20app%20(1)/vite.config.mjs:3:9)\n", cfg, 3, 9},
		{"module_url_query_hash", "Error: boom\n    at node:internal/process/task_queues:95:5\n    at file:///work/my%20app%20(1)/vite.config.mjs?t=17#x:4:1\n", cfg, 4, 1},
		{"package_under_root", "Error: boom\n    at f (file:///work/my%20app%20(1)/node_modules/p/index.js:1:2)\n", root + "/node_modules/p/index.js", 1, 2},
		{"async_top_level", "Error: boom\n    at h (node:internal/x:1:2)\n    at async file:///work/my%20app%20(1)/vite.config.mjs:5:1\n", cfg, 5, 1},
		{"eval_at_caller", "Error: boom\n    at eval (eval at <anonymous> (file:///work/my%20app%20(1)/vite.config.mjs:2:15), <anonymous>:1:7)\n    at file:///work/my%20app%20(1)/vite.config.mjs:2:15\n", cfg, 2, 15},
		{"eval_commonjs", "Error: boom\n    at eval (eval at load (/work/my app (1)/vite.config.cjs:2:15), <anonymous>:1:7)\n    at load (/work/my app (1)/vite.config.cjs:2:15)\n", root + "/vite.config.cjs", 2, 15},
		{"function_name_with_path", "Error: boom\n    at load (/tmp) (/work/my app (1)/vite.config.cjs:6:3)\n", root + "/vite.config.cjs", 6, 3},
		{"outside_root", "Error: boom\n    at f (/work/other/x.js:1:2)\n    at node:internal/main/run_main_module:28:49\n", cfg, 0, 0},
		{"node_eval_and_data_url", "Error: boom\n    at [eval]:1:7\n    at data:text/javascript,throw new Error('x (y)'):1:7\n", cfg, 0, 0},
	} {
		t.Run(row.name, func(t *testing.T) {
			te := stopped(Request{File: cfg}, cmd.ProcessState, row.stderr, root)
			if te.File != row.file || te.Line != row.line || te.Column != row.col {
				t.Errorf("placed at %s:%d:%d, want %s:%d:%d (%s)", te.File, te.Line, te.Column, row.file, row.line, row.col, te.Message)
			}
		})
	}
}

// TestRunnerPipesNotApps: the runner's requests and answers travel on descriptors of its own,
// which the app's code does not reach through fs: a vite.config that read file descriptor 0
// with fs.readSync (the runner's requests came on it) took the next request's line, which then
// waited for ever; a line written on the answers' descriptor is no answer (it has no key).
func TestRunnerPipesNotApps(t *testing.T) {
	for _, row := range []struct {
		name, code  string
		want, never string // in the first request's answer
	}{
		// Each descriptor the runner's pipes were or are on, read until it gives bytes, ends
		// or is refused (EAGAIN: nothing yet, read again), for up to a minute.
		// The config says it runs (a file in Node's temporary folder) before it reads, and the
		// next request is sent after: its line is then on the pipe as the config reads.
		{"read_sync", `import fs from "node:fs";
import os from "node:os";
fs.writeFileSync(os.tmpdir() + "/reading", "");
const buf = Buffer.alloc(65536), open = new Set([0, 3, 4]), until = Date.now() + 60000;
let got = "";
while (open.size > 0 && got === "" && Date.now() < until) {
  for (const fd of open) {
    try { const n = fs.readSync(fd, buf, 0, buf.length, null); if (n > 0) got += buf.toString("utf8", 0, n); else open.delete(fd); }
    catch (e) { if (e.code !== "EAGAIN") open.delete(fd); }
  }
}
export default { define: { got: JSON.stringify(got) } };
`, `"got":"\"\""`, ""},
		{"write_sync_forged_answers", `import fs from "node:fs";
for (const fd of [1, 3, 4]) for (let id = 1; id <= 4; id++) try { fs.writeSync(fd, JSON.stringify({ id, css: JSON.stringify({ base: "/forged/" }) }) + "\n"); } catch {}
export default { base: "./real/" };
`, `"base":"./real/"`, "forged"},
		{"read_file_sync_stdin", `import fs from "node:fs";
export default { define: { got: JSON.stringify(fs.readFileSync(0, "utf8")) } };
`, `"got":"\"\""`, ""},
	} {
		t.Run(row.name, func(t *testing.T) {
			r, file := configRunner(t, "export default {};\n")
			defer r.Kill()
			type result struct {
				out string
				err error
			}
			first := make(chan result, 1)
			go func() {
				out, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: row.code})
				first <- result{out, err}
			}()
			testwait.Until(t, "the first request to be sent", func() bool {
				r.mu.Lock()
				defer r.mu.Unlock()
				return r.nextID > 0
			})
			if strings.Contains(row.code, `"/reading"`) {
				testwait.Until(t, "the config to read", func() bool {
					m, _ := filepath.Glob(filepath.Join(r.Temp, "bundle-node-*", "reading"))
					return len(m) > 0
				})
			}
			// Generous: Node answers in milliseconds; a request whose line the app's code
			// took never is.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, err := r.Run(ctx, Request{Tool: "viteconfig", File: file, CSS: "export default { base: \"./\" };\n"})
			if err != nil || !strings.Contains(out, `"base":"./"`) {
				t.Errorf("the next request: %q, %v; want the config", out, err)
			}
			res := <-first
			if res.err != nil || !strings.Contains(res.out, row.want) || row.never != "" && strings.Contains(res.out, row.never) {
				t.Errorf("the first request: %q, %v; want %s", res.out, res.err, row.want)
			}
		})
	}
}

// TestConfigErrorPlaced: what a vite.config throws is placed at its line, read from the stack
// with the functions the runner took before any app code ran: a config that replaced
// RegExp.prototype.exec, String.prototype.split (or its Symbol.split), trim or the array
// iterator before it threw had its error said at the config with no line.
func TestConfigErrorPlaced(t *testing.T) {
	for _, row := range []struct {
		name, code string
		line, col  int
	}{
		{"plain", "throw new Error(\"boom\");\nexport default {};\n", 1, 7},
		{"regexp_exec", "RegExp.prototype.exec = () => null;\nthrow new Error(\"boom\");\nexport default {};\n", 2, 7},
		{"string_split", "String.prototype.split = () => [];\nString.prototype[Symbol.split] = () => [];\nthrow new Error(\"boom\");\nexport default {};\n", 3, 7},
		{"trim_and_iterator", "String.prototype.trim = () => \"\";\nArray.prototype[Symbol.iterator] = function* () {};\nthrow new Error(\"boom\");\nexport default {};\n", 3, 7},
		{"globals", "globalThis.String = () => \"\";\nglobalThis.Number = () => 0;\nObject.assign = (o) => o;\nthrow new Error(\"boom\");\nexport default {};\n", 4, 7},
	} {
		t.Run(row.name, func(t *testing.T) {
			r, file := configRunner(t, row.code)
			_, err := r.Run(context.Background(), Request{Tool: "viteconfig", File: file, CSS: row.code})
			var te *ToolError
			if !errors.As(err, &te) || te.Message != "boom" || te.File != file || te.Line != row.line || te.Column != row.col {
				t.Fatalf("%#v, want a ToolError \"boom\" at %s:%d:%d", err, file, row.line, row.col)
			}
		})
	}
}

// configRunner is a Runner (no fence: the test's process is not fenced) for a folder of its
// own that holds a vite.config.js of code, and the config's path; it is closed with the test.
func configRunner(t *testing.T, code string) (*Runner, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := New(dir, dir, t.TempDir())
	r.NoFence = true
	t.Cleanup(r.Close)
	file := filepath.Join(dir, "vite.config.js")
	if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	return r, file
}

// openFiles is the number of files the test's process has open (its /proc/self/fd).
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("count the open files: %v (the test reads /proc/self/fd, which Linux gives)", err)
	}
	return len(fds)
}
