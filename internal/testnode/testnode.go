// Package testnode runs JavaScript modules in Node for tests, as `node module.mjs` (or `node
// script.cjs`) runs each, many in one Node process: each module in a realm of its own (a vm
// context: its own global object and built-ins), with Node's globals a module reads (console,
// timers, URL, TextEncoder, …), Node's own modules and data: URLs to import, and done when node
// would exit (its evaluation settled and no timer left; an exception it did not catch or a
// rejection it did not handle ends it, as it ends the process). A process a module took 0.16 s
// of CPU; a context takes a few milliseconds.
//
//	node := testnode.Start(t)
//	r := node.Run(t, `console.log(1 + 1)`) // r.Out == "2\n"
//
// TestRunnerAsNode holds each Result the same as a node process's.
package testnode

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

//go:embed runner.mjs
var runnerJS []byte

// Runner is a Node process that runs modules one after another. Its methods are safe for
// concurrent use; the modules run one at a time.
type Runner struct {
	mu     sync.Mutex
	in     *json.Encoder
	out    *bufio.Reader
	stderr *strings.Builder
}

// Result is what a module did.
type Result struct {
	Out   string // what console.log and console.info printed (stdout)
	Threw bool   // node would have exited with an error
	// Err is what it threw, as util.inspect writes it; node writes that to stderr.
	Err string
}

// ErrLine is the line of node's stderr, or of Result.Err, that names the error ("TypeError:
// …"), "" when none does (a value thrown that is no Error).
func (r Result) ErrLine() string { return errLine.FindString(r.Err) }

var errLine = regexp.MustCompile(`(?m)^\w*Error: .*$`)

// Node returns the path of node, failing the test when there is none.
func Node(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("Node.js is needed (scripts/test installs it): %v", err)
	}
	return node
}

// Start starts the Node process; the test's cleanup stops it.
func Start(t testing.TB) *Runner {
	t.Helper()
	file := filepath.Join(t.TempDir(), "runner.mjs")
	if err := os.WriteFile(file, runnerJS, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(Node(t), "--experimental-vm-modules", "--no-warnings", file)
	r := &Runner{stderr: &strings.Builder{}}
	cmd.Stderr = r.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start node: %v", err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	r.in, r.out = json.NewEncoder(in), bufio.NewReader(out)
	return r
}

// Run runs code as an ES module, as `node module.mjs` does.
func (r *Runner) Run(t testing.TB, code string) Result {
	t.Helper()
	return r.run(t, code, false)
}

// RunCommonJS runs code as a CommonJS module, as `node script.cjs` does (sloppy mode, this
// module.exports).
func (r *Runner) RunCommonJS(t testing.TB, code string) Result {
	t.Helper()
	return r.run(t, code, true)
}

func (r *Runner) run(t testing.TB, code string, commonjs bool) Result {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.in.Encode(struct {
		Code     string `json:"code"`
		CommonJS bool   `json:"commonjs"`
	}{code, commonjs}); err != nil {
		t.Fatalf("run a module in node: %v (its stderr: %s)", err, r.stderr)
	}
	line, err := r.out.ReadBytes('\n')
	if err != nil && err != io.EOF || len(line) == 0 {
		t.Fatalf("run a module in node: %v (its stderr: %s)", err, r.stderr)
	}
	var a struct {
		Result
		Harness string
	}
	if err := json.Unmarshal(line, &a); err != nil {
		t.Fatalf("run a module in node: %v: %s", err, line)
	}
	if a.Harness != "" {
		t.Fatalf("%s\n%s", a.Harness, code)
	}
	return a.Result
}
