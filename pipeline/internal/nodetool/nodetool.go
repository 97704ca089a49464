// Package nodetool runs an app's own npm CSS tools (PostCSS and its plugins, Tailwind CSS v4,
// Sass) and its frameworks' compilers (Vue's compiler-sfc, Svelte's compiler, Solid's Babel
// preset) on Node.js, as Hugo's pipes do: Node from PATH, packages resolved from the app's
// node_modules, nothing installed or downloaded.
//
//	r := nodetool.New(appDir, root, "")
//	defer r.Close()
//	css, err := r.Run(ctx, nodetool.Request{Tool: "sass", File: "/app/src/app.scss"})
//	var te *nodetool.ToolError // errors.As: the tool refused the input, with its place
//	var me *nodetool.MissingError // errors.As: an npm package the app has not installed
//
// One Node process serves a Runner, started at the first request, and again at the next
// request after it ended (a tool killed it: StoppedError; Kill), until Close; requests may run
// concurrently. Requests and answers travel on pipes of their own (Node's file descriptors 3
// and 4; its input is /dev/null): what a tool writes to stdout is not read, and what it reads
// from its input is no request. A Runner is safe for concurrent use.
//
// # Confinement
//
// Node runs inside the kernel's fence (package confine: Landlock on Linux), whatever the
// calling process holds: it may read only Root, write only its own temporary folder, run only
// itself, and reach no TCP port. Its environment is reduced to what the tools need (no
// tokens, no cloud keys, no NODE_OPTIONS or NODE_PATH). Inside it, the runner loads packages
// only from the node_modules folders inside Root (never an ancestor's, NODE_PATH's or the
// home folder's), and gives the tools loaders that refuse a file outside Root: Sass's
// importer, Tailwind CSS's stylesheet and module resolvers and the folders it scans, and the
// fs functions the tools read and write with. Where the kernel has no Landlock, those checks
// are what holds, and the app's PostCSS config and plugins (code the app brings) run as Node
// code runs, under Node's permission model where Node has one (permission.go).
package nodetool

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/internal/rootpath"
	"github.com/miniapp/bundle/internal/v8stack"
)

//go:embed runner.mjs
var runner string

// ErrNoNode is returned (wrapped) when Node.js is not on PATH.
var ErrNoNode = errors.New("Node.js is not on PATH")

// ErrNodeLeftOut is returned for a vite.config's request by a Runner whose caller left Node
// out of its fence (Runner.NoNode): the app had no vite.config when the fence was made.
var ErrNodeLeftOut = errors.New("Node is not inside this build's fence, which was made when the app had no vite.config, PostCSS config or npm package of a CSS tool or compiler: build again")

// MissingError says that the app has not installed an npm package a tool needs. Package is
// empty when the app has no node_modules folder at all (HasPackages): then the tool's own
// package is missing, which the caller names. Where the caller's fence left Node out
// (Runner.NoNode), it is the package the tool loads first, as Node says it.
type MissingError struct {
	Package string
	// Want is the package and the range to install ("vue@^3.3.0"), where the tool says.
	Want string
	// Spec is the specifier the stylesheet wrote for it (Tailwind's @plugin "x/sub"), where
	// the tool says.
	Spec string
}

func (e *MissingError) Error() string {
	if e.Package == "" {
		return "no npm package is installed"
	}
	return e.Package + " is not installed"
}

// HasPackages reports whether a node_modules folder is in dir or in a folder above it up to
// root: the only places a Runner loads packages from. Without one no tool can run, and a
// build's fence leaves Node out (pipeline.Fence), since finding what Node loads costs more
// than the rest of the fence.
func HasPackages(dir, root string) bool {
	for {
		if st, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil && st.IsDir() {
			return true
		}
		parent := filepath.Dir(dir)
		if dir == root || parent == dir || !strings.HasPrefix(parent, root) {
			return false
		}
		dir = parent
	}
}

// ToolPackages are the npm packages the runner's tools load first, each the one a tool cannot
// do without: PostCSS ("postcss"), Tailwind CSS ("@tailwindcss/node"), Sass ("sass", else
// "sass-embedded"), Less, Stylus, and the compilers of Vue ("vue"), Svelte ("svelte") and
// Solid ("@babel/core", then "babel-preset-solid"). A tool none of whose packages is installed
// fails before it runs anything, with a MissingError; the runner's other tools read a
// vite.config. The caller must not modify it.
var ToolPackages = []string{"postcss", "@tailwindcss/node", "sass", "sass-embedded", "less", "stylus", "vue", "svelte", "@babel/core", "babel-preset-solid"}

// toolFirst is, for each tool of runner.mjs that loads a package, the package it loads first
// and the range its error names for it (compiler's want), as Node says it when that package is
// not installed (TestToolFirst holds it to runner.mjs).
var toolFirst = map[string][2]string{
	"postcss": {"postcss"}, "tailwind": {"@tailwindcss/node"}, "sass": {"sass"}, "less": {"less"}, "stylus": {"stylus"},
	"vue": {"vue", "vue@^3.3.0"}, "svelte": {"svelte", "svelte@^5.0.0"}, "svelte-module": {"svelte", "svelte@^5.0.0"},
	"solid": {"@babel/core", "@babel/core@^7.20.0"},
}

// ToolInstalled reports whether a package of ToolPackages may be found from dir as the runner
// finds it (runner.mjs's find): in a node_modules folder of dir or of a folder above it up to
// root (as a folder, a link, or name.js, .json or .node), in the node_modules folder of a
// package the package.json files of those folders depend on, or in pnpm's hoisting folder.
// It lists folders and reads package.json files inside root, its links followed inside root
// only: nothing outside is looked at. It says true where it cannot tell without reading more
// (a pnpm store, node_modules/.pnpm, whose packages keep their dependencies beside them; a
// dependency that is a link) or where a folder or file it would read leads out of root (Node
// is then let in, and the runner refuses what leads out, as it did).
func ToolInstalled(dir, root string) bool {
	var folders []string
	deps := map[string]bool{}
	for d := dir; ; {
		switch nm, err := rootpath.Resolve(filepath.Join(d, "node_modules"), root); {
		case errors.Is(err, rootpath.ErrOutside):
			return true
		case err == nil && isDir(nm):
			folders = append(folders, nm)
		}
		switch pj, err := rootpath.Resolve(filepath.Join(d, "package.json"), root); {
		case errors.Is(err, rootpath.ErrOutside):
			return true
		case err == nil:
			addDeps(pj, deps)
		}
		parent := filepath.Dir(d)
		if d == root || parent == d || !strings.HasPrefix(parent, root) {
			break
		}
		d = parent
	}
	for _, nm := range folders {
		if _, err := os.Lstat(filepath.Join(nm, ".pnpm")); err == nil {
			return true
		}
		if hasTool(nm, root) {
			return true
		}
	}
	for dep := range deps {
		if !filepath.IsLocal(filepath.FromSlash(dep)) {
			continue // not a package's name: nothing Node would find in node_modules
		}
		for _, nm := range folders {
			at := filepath.Join(nm, filepath.FromSlash(dep))
			st, err := os.Lstat(at)
			if err != nil {
				continue
			}
			if st.Mode()&os.ModeSymlink != 0 {
				return true // its node_modules is where the link leads
			}
			if _, err := os.Lstat(filepath.Join(at, "package.json")); err != nil {
				continue // the runner looks on
			}
			// Node looks in the package's node_modules, then (a scoped one) its scope's.
			if hasTool(filepath.Join(at, "node_modules"), root) || strings.HasPrefix(dep, "@") && hasTool(filepath.Join(filepath.Dir(at), "node_modules"), root) {
				return true
			}
			break
		}
	}
	return false
}

// addDeps adds the names of the packages the package.json at p depends on to deps.
func addDeps(p string, deps map[string]bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return
	}
	var pj map[string]json.RawMessage
	if json.Unmarshal(b, &pj) != nil {
		return
	}
	for _, k := range []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"} {
		var m map[string]json.RawMessage
		if json.Unmarshal(pj[k], &m) == nil {
			for dep := range m {
				deps[dep] = true
			}
		}
	}
}

// hasTool reports whether the node_modules folder nm holds a package of ToolPackages, as
// Node's resolution of a bare name finds it there: a folder or file of the name, or the name
// with .js, .json or .node. A folder that leads out of root says true (Node is let in, and
// the runner refuses it).
func hasTool(nm, root string) bool {
	real, err := rootpath.Resolve(nm, root)
	if errors.Is(err, rootpath.ErrOutside) {
		return true
	}
	if err != nil {
		return false
	}
	names := readNames(real)
	if names == nil {
		return false
	}
	scopes := map[string]map[string]bool{}
	for _, pkg := range ToolPackages {
		in, name := names, pkg
		if scope, rest, ok := strings.Cut(pkg, "/"); ok {
			if !names[scope] {
				continue
			}
			if _, done := scopes[scope]; !done {
				sreal, err := rootpath.Resolve(filepath.Join(real, scope), root)
				if errors.Is(err, rootpath.ErrOutside) {
					return true
				}
				scopes[scope] = nil
				if err == nil {
					scopes[scope] = readNames(sreal)
				}
			}
			in, name = scopes[scope], rest
		}
		for _, ext := range []string{"", ".js", ".json", ".node"} {
			if in[name+ext] {
				return true
			}
		}
	}
	return false
}

// readNames returns the names in the folder dir, nil where it cannot be listed.
func readNames(dir string) map[string]bool {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	list, err := f.Readdirnames(-1)
	if err != nil {
		return nil
	}
	names := make(map[string]bool, len(list))
	for _, n := range list {
		names[n] = true
	}
	return names
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ToolError is a tool's refusal of its input: a CSS syntax error, an unknown utility class, a
// Sass error. File, Line and Column are set where the tool names a place (1-based). Outside
// names a file outside Root that the tool was refused.
type ToolError struct {
	Message      string
	File         string
	Line, Column int
	Outside      string
	// Note is what the tool adds to its message (a link to its documentation).
	Note string
	// Crashed names the compiler and its version when the error is the compiler's own fault
	// ("svelte 5.0.0"), not a refusal of its input.
	Crashed string
	// KernelOnly names the package of native code that neither the runner's checks nor
	// Node's permission model hold, which the runner runs only inside the kernel's fence, and
	// which was asked for outside it: "sass-embedded" (its compiler, a program), or an addon's
	// ("@parcel/watcher-linux-x64-glibc").
	KernelOnly string
	// Refused says which fence refused what the tool's code tried, where one did (none
	// where its code failed of its own): RefusedChecks, RefusedModel or RefusedKernel.
	// Denied is what it tried: "read", "write", "file" (the kernel's refusal of an open,
	// either), "program", "worker", "socket", "addon" (KernelOnly's) or "other".
	Refused, Denied string
}

// The fences a ToolError's Refused names.
const (
	RefusedChecks = "checks" // the runner's own checks: its fs guards, loaders and sockets
	RefusedModel  = "model"  // Node's permission model (permission.go)
	RefusedKernel = "kernel" // the kernel's fence around Node
)

func (e *ToolError) Error() string { return e.Message }

// StoppedError says that Kill stopped Node while it was running the request (another
// request ran past Timeout, or a caller killed it): Stderr is what Node wrote last; Killed is
// always set. (Node that ended of itself fails its requests with a ToolError: stopped.) The
// next request starts Node again, unless the Runner was closed.
type StoppedError struct {
	Stderr string
	Killed bool
}

func (e *StoppedError) Error() string {
	if e.Stderr == "" {
		return "node was killed"
	}
	return "node was killed: " + e.Stderr
}

// TimeoutError says that a request did not finish in its Runner's Timeout (a plugin's promise
// that never settles, a loop): Node was killed, and the next request starts it again. The
// other requests in flight on that Node end with a StoppedError whose Killed is set.
type TimeoutError struct {
	Tool  string // the request's Tool
	After time.Duration
	// Running is the stylesheet's at-rule whose code the tool was running when it was killed,
	// as the runner noted it before it called that code (a Less @plugin's, its install; a
	// Tailwind @plugin's, as imported and called); nil where the runner was running none.
	Running *Running
}

// Running names an at-rule of a stylesheet by its name ("@plugin"; "" where the runner cannot
// tell a Tailwind @plugin from a @config) and its string parameter as written ("./spin.js").
type Running struct {
	Rule string `json:"rule"`
	Spec string `json:"spec"`
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s did not finish in %v", e.Tool, e.After)
}

// VersionError says that the app has installed a compiler of a major version the runner does
// not run: Want is the package and the range to install ("svelte@^5.0.0").
type VersionError struct{ Message, Want string }

func (e *VersionError) Error() string { return e.Message }

// Output is what a framework's compiler made of a component: code in Loader's language ("js"
// or "ts"), the component's CSS ("" for none), the compiler's warnings, and the code's
// source map (JSON) when the request asked for one.
type Output struct {
	JS, Loader, CSS, Map string
	Warnings             []ToolError
}

// Request is one job. Tool is "postcss" (Config names the PostCSS config file), "tailwind"
// (Base is the folder Tailwind scans for class names, Ignore folders it must not scan),
// "sass", "less" or "stylus" (File is read by the compiler itself), or "viteconfig" (File
// is a vite.config, CSS the module it bundles to; the answer is the config as JSON), or
// "scopednames" (the same, Options {filename, source, names}: the answer is the names its
// css.modules.generateScopedName function gives, a JSON array); for
// Compile, "vue", "svelte" or "solid" (TS: the file is TypeScript), each reading File, or
// "svelte-module" (Code).
type Request struct {
	Tool   string   `json:"tool"`
	File   string   `json:"file"`
	CSS    string   `json:"css"` // "" too: an empty stylesheet is one
	Config string   `json:"config,omitempty"`
	Base   string   `json:"base,omitempty"`
	Ignore []string `json:"ignore,omitempty"`
	TS     bool     `json:"ts,omitempty"`
	Map    bool     `json:"map,omitempty"` // Compile, and RunMap's "sass": a source map of the output too
	// Code is the module "svelte-module" compiles (File names it): a name.svelte.js file's
	// text, or a name.svelte.ts file's without its types.
	Code string `json:"code,omitempty"`
	// Options are a preprocessor's options (a vite.config's css.preprocessorOptions for the
	// stylesheet's language, additionalData among them), as JSON.
	Options json.RawMessage `json:"options,omitempty"`
	// Aliases are a vite.config's resolve.alias, which Sass's and Less's imports go through.
	Aliases []Alias `json:"aliases,omitempty"`
}

// Alias is one of resolve.alias: Find a string, or Regex a JavaScript regular expression's
// source (with Flags), and what replaces the match.
type Alias struct {
	Find        string `json:"find,omitempty"`
	Regex       string `json:"regex,omitempty"`
	Flags       string `json:"flags,omitempty"`
	Replacement string `json:"replacement"`
}

// Runner runs requests on one Node process in Dir, confined to Root.
type Runner struct {
	Dir  string // the app folder: Node's working folder
	Root string // the folder Node may read and load packages from: the app's, or its workspace root
	Temp string // where Node's private temporary folder is made; "" is os.TempDir()
	// NoFence starts Node outside the kernel's fence (the runner's own checks still hold,
	// and Node's permission model: permission.go).
	NoFence bool
	// NoNode starts no Node: a caller whose fence leaves Node out (no tool could run when
	// it was made: ToolInstalled) sets it. A tool's request then fails as Node would fail it
	// (MissingError: the package the tool loads first, with the range to install, toolFirst),
	// and a vite.config's, or a tool's once a package of ToolPackages is installed, with
	// ErrNodeLeftOut.
	NoNode bool
	// Timeout bounds each request, from when it is sent: one that has no answer by then ends
	// with a TimeoutError and Node is killed (Kill), so that a tool that never answers is an
	// error, not a build that never ends. 0 is no bound.
	Timeout time.Duration

	mu      sync.Mutex
	fence   confine.Status
	started bool
	closed  bool // Close was called: Node is not started again
	killed  bool // Kill was called on this Node
	err     error
	input   io.WriteCloser // the requests' pipe (Node's descriptor 3)
	cmd     *exec.Cmd
	nextID  int
	waiting map[int]waiter
	// gone is closed once Node has exited and its temporary folder is removed.
	gone chan struct{}
}

// closeWait is how long Close waits for Node to exit once its input is closed before it
// kills it: a tool that keeps Node busy (a watcher it started) does not hold the build.
const closeWait = 10 * time.Second

// waiter is a request sent to Node and not yet answered.
type waiter struct {
	ch  chan reply
	req Request
	// running is the at-rule whose code the runner last said it runs for the request (a
	// note line), nil once it said that code returned.
	running *Running
}

type reply struct {
	ID int `json:"id"`
	// Ready is the runner's first line: it is set up, and what stops Node from here on stops
	// it while it runs the app's code.
	Ready bool `json:"ready"`
	// Running is a note, not an answer: the request's tool is about to run the code of this
	// at-rule (a Less @plugin); an empty one says that code returned.
	Running  *Running `json:"running"`
	CSS      string   `json:"css"`
	JS       string   `json:"js"`
	Loader   string   `json:"loader"`
	Map      string   `json:"map"`
	Warnings []struct {
		Message string `json:"message"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
	} `json:"warnings"`
	Error *struct {
		Message    string `json:"message"`
		Missing    string `json:"missing"`
		Want       string `json:"want"`
		Spec       string `json:"spec"`
		Note       string `json:"note"`
		Crashed    string `json:"crashed"`
		File       string `json:"file"`
		Line       int    `json:"line"`
		Column     int    `json:"column"`
		Outside    string `json:"outside"`
		KernelOnly string `json:"kernelOnly"`
		Refusal    *struct {
			By   string `json:"by"`
			What string `json:"what"`
		} `json:"refusal"`
	} `json:"error"`
	gone error
}

// New returns a Runner for the app in dir, confined to root, with its temporary folder in
// temp; Node starts at the first Run.
func New(dir, root, temp string) *Runner {
	return &Runner{Dir: dir, Root: root, Temp: temp, waiting: map[int]waiter{}}
}

// Fence returns the fence Node runs in, once it has started.
func (r *Runner) Fence() confine.Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fence
}

// Pid returns the id of the Node process, 0 before it has started.
func (r *Runner) Pid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil || r.cmd.Process == nil {
		return 0
	}
	return r.cmd.Process.Pid
}

// environ is Node's environment: what the tools need and nothing of the caller's (its tokens,
// its cloud keys, NODE_OPTIONS that would load code, NODE_PATH that would find packages
// elsewhere).
func environ(node, root, tmp string) []string {
	return []string{
		"PATH=" + filepath.Dir(node),
		"HOME=" + tmp, "TMPDIR=" + tmp,
		"NODE_ENV=production",
		"TZ=UTC",                         // the machine's zone (ICU reads /etc/localtime) is no input of the page
		"OPENSSL_CONF=" + os.DevNull,     // Node reads no OpenSSL configuration of the machine's
		"BROWSERSLIST_ROOT_PATH=" + root, // browserslist looks for its config no higher
		"BROWSERSLIST_IGNORE_OLD_DATA=1",
		"NO_COLOR=1", "FORCE_COLOR=0",
		"MINIAPP_ROOT=" + root, // the runner's confinement
	}
}

func (r *Runner) start() error {
	if r.started && r.gone != nil && !r.closed {
		select {
		case <-r.gone: // Node ended under a request (a tool killed it): a new one for this one
			r.started, r.err, r.cmd, r.input, r.gone, r.killed = false, nil, nil, nil, nil, false
		default:
		}
	}
	if r.started {
		return r.err
	}
	r.started = true
	node, err := exec.LookPath("node")
	if err != nil {
		r.err = fmt.Errorf("%w: install Node.js 18 or later (https://nodejs.org), which runs the app's own CSS tools", ErrNoNode)
		return r.err
	}
	if real, err := filepath.EvalSymlinks(node); err == nil {
		node = real
	}
	rt, err := confine.Program(node)
	if err != nil {
		r.err = fmt.Errorf("find what %s needs to run: %w", node, err)
		return r.err
	}
	tmp, err := os.MkdirTemp(r.Temp, "bundle-node-")
	if err != nil {
		r.err = fmt.Errorf("make Node's temporary folder: %w", err)
		return r.err
	}
	// The heap's limit is fixed (V8 takes it from the machine's memory otherwise, and
	// v8.getHeapStatistics() would tell it to a config); 4 GiB is V8's own limit on a 64-bit
	// machine with 16 GiB or more.
	args, env := []string{"--no-deprecation", "--max-old-space-size=4096"}, environ(node, r.Root, tmp)
	if !r.NoFence && confine.Available().ABI > 0 {
		// The runner lets an addon read in native code only inside the kernel's fence.
		env = append(env, "MINIAPP_KERNEL_FENCE=1")
	} else {
		// No kernel's fence around Node: its permission model is the second fence.
		args = append(args, permissionFlags(node, r.Root, tmp)...)
	}
	cmd := exec.Command(node, append(args, "--input-type=module", "--eval", runner)...)
	// Node's process.argv0 and process.title are its argv[0], which no code may change: the
	// name, not where Node is (the runner fixes process.execPath and argv[0] likewise).
	cmd.Args[0] = "node"
	cmd.Dir = r.Dir
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	// Node's input is /dev/null (cmd.Stdin nil), as for a program given none: the requests
	// come on a pipe of their own (Node's file descriptor 3), and the answers leave on another
	// (4), which the runner refuses the tools' fs calls: a config that read descriptor 0 took
	// the next request's line, and what a tool writes to stdout is not read.
	requests, in, err := os.Pipe()
	if err != nil {
		os.RemoveAll(tmp)
		r.err = err
		return err
	}
	out, answers, err := os.Pipe()
	if err != nil {
		requests.Close()
		in.Close()
		os.RemoveAll(tmp)
		r.err = err
		return err
	}
	cmd.ExtraFiles = []*os.File{requests, answers}
	fence := confine.Fence{Read: []string{r.Root}, Exec: rt, Write: []string{tmp}}
	if r.NoFence {
		err = cmd.Start()
	} else {
		r.fence, err = fence.Start(cmd)
	}
	requests.Close() // Node's ends; each pipe ends when Node does
	answers.Close()
	if err != nil {
		in.Close()
		out.Close()
		os.RemoveAll(tmp)
		r.err = fmt.Errorf("start node: %w", err)
		return r.err
	}
	// What held Node, for the caller that says it (Ran): its version was read for its flags.
	if r.fence.ABI > 0 {
		ran.Store(r.fence.String(), true)
	} else if held, why := modelOf(node); held {
		ran.Store("node permission model", true)
	} else {
		ran.Store(why, true)
	}
	// The runner's answers start with key, the first line it reads: a line the app's code
	// writes on the answers' pipe itself (fs.writeSync(3, …)) is no answer.
	var k [16]byte
	rand.Read(k[:])
	key := []byte(hex.EncodeToString(k[:]))
	if _, err := in.Write(append(slices.Clip(key), '\n')); err != nil {
		confine.Kill(cmd.Process)
	}
	gone := make(chan struct{})
	r.cmd, r.input, r.gone = cmd, in, gone
	go func() {
		defer close(gone)
		ready := false
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			line := sc.Bytes()
			i := bytes.Index(line, key)
			if i < 0 {
				continue
			}
			var rep reply
			if json.Unmarshal(line[i+len(key):], &rep) != nil {
				continue
			}
			if rep.Ready {
				ready = true
				continue
			}
			if rep.Running != nil {
				r.mu.Lock()
				if w, ok := r.waiting[rep.ID]; ok {
					w.running = rep.Running
					if rep.Running.Spec == "" {
						w.running = nil
					}
					r.waiting[rep.ID] = w
				}
				r.mu.Unlock()
				continue
			}
			r.mu.Lock()
			w, ok := r.waiting[rep.ID]
			delete(r.waiting, rep.ID)
			r.mu.Unlock()
			if ok {
				w.ch <- rep
			}
		}
		out.Close()
		cmd.Wait()
		in.Close() // the requests' pipe, as exec closed Node's stdin once it ended
		os.RemoveAll(tmp)
		r.mu.Lock()
		defer r.mu.Unlock()
		if !ready {
			// Node stopped before it could run a request: its own failure, and every later
			// request's.
			r.err = fmt.Errorf("node stopped: %s", strings.TrimSpace(stderr.String()))
			for id, w := range r.waiting {
				w.ch <- reply{gone: r.err}
				delete(r.waiting, id)
			}
			return
		}
		// The app's code stopped Node (process.exit, a listener that throws as Node handles
		// an uncaught exception, a crash): the failure of each request in flight, placed where
		// Node's last words place it; the next request starts another Node.
		// Kill stopped it (a compile that did not finish): a StoppedError, which the caller
		// that killed it says.
		for id, w := range r.waiting {
			if r.killed {
				w.ch <- reply{gone: &StoppedError{Stderr: strings.TrimSpace(stderr.String()), Killed: true}}
			} else {
				w.ch <- reply{gone: stopped(w.req, cmd.ProcessState, stderr.String(), r.Root)}
			}
			delete(r.waiting, id)
		}
		if r.cmd == cmd && !r.closed {
			r.started, r.err, r.cmd, r.input, r.killed = false, nil, nil, nil, false
		}
	}()
	return nil
}

// stopped is the failure of req, in flight when Node stopped (state) after printing stderr:
// a ToolError that says so, with the error Node printed, placed at the first frame of its
// stack in a file of root's (a package's too), else at req's file.
func stopped(req Request, state *os.ProcessState, stderr, root string) *ToolError {
	te := &ToolError{Message: "Node stopped while running it (" + state.String() + ")", File: req.File}
	lines := strings.Split(stderr, "\n")
	first := true
	for i, l := range lines {
		frame, ok := v8stack.ParseFrame(l)
		if !ok {
			continue
		}
		if first && i > 0 && strings.TrimSpace(lines[i-1]) != "" {
			// The line above the stack's first frame: the error's name and message (its last
			// line, where it has several), as Node printed it.
			te.Message += ": " + strings.TrimSpace(lines[i-1])
		}
		first = false
		if file, ok := scriptFile(frame.Place.Script); ok && frame.Place.Line > 0 && inside(file, root) {
			te.File, te.Line, te.Column = file, frame.Place.Line, frame.Place.Column
			break
		}
	}
	return te
}

// scriptFile returns the file a frame's script names in Node: an absolute path (a CommonJS
// module's), or a file: URL (an ES module's, its query and fragment left out). A script of
// eval'd code ("<anonymous>"), of Node's own ("node:…") or of a data: URL names none.
func scriptFile(script string) (string, bool) {
	if strings.HasPrefix(script, "file:") {
		u, err := url.Parse(script)
		if err != nil {
			return "", false
		}
		script = u.Path
	}
	if !filepath.IsAbs(script) {
		return "", false
	}
	return filepath.Clean(script), true
}

// inside reports whether file is root or under it, lexically (the frames name real paths).
func inside(file, root string) bool {
	rel, err := filepath.Rel(root, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Run runs req and returns the CSS the tool produced.
func (r *Runner) Run(ctx context.Context, req Request) (string, error) {
	rep, err := r.call(ctx, req)
	return rep.CSS, err
}

// RunMap is Run for a request that asks for a source map (Map: "sass"): the CSS and its
// source map (JSON), "" where the tool gives none.
func (r *Runner) RunMap(ctx context.Context, req Request) (css, sourceMap string, err error) {
	rep, err := r.call(ctx, req)
	return rep.CSS, rep.Map, err
}

// Compile runs a framework's compiler (req.Tool "vue", "svelte" or "solid") on req.File.
func (r *Runner) Compile(ctx context.Context, req Request) (Output, error) {
	rep, err := r.call(ctx, req)
	if err != nil {
		return Output{}, err
	}
	out := Output{JS: rep.JS, Loader: rep.Loader, CSS: rep.CSS, Map: rep.Map}
	for _, w := range rep.Warnings {
		out.Warnings = append(out.Warnings, ToolError{Message: w.Message, File: w.File, Line: w.Line, Column: w.Column})
	}
	return out, nil
}

// call sends req to Node and waits for its answer.
func (r *Runner) call(ctx context.Context, req Request) (reply, error) {
	if r.NoNode && (req.Tool == "viteconfig" || req.Tool == "scopednames") {
		return reply{}, ErrNodeLeftOut
	}
	if req.Tool != "viteconfig" && req.Tool != "scopednames" && !HasPackages(r.Dir, r.Root) {
		// Nothing to load a tool from: said without starting Node, which a fenced build of
		// such an app cannot run (see HasPackages). A vite.config, which may import no
		// package, is loaded all the same (the fence lets Node in for an app that has one).
		return reply{}, &MissingError{}
	}
	if r.NoNode {
		// No package of a tool was installed when the caller's fence left Node out: the
		// tool's first package is not, and Node would have said so (what it says, with the
		// range to install). One installed since is built again, with Node in the fence.
		if ToolInstalled(r.Dir, r.Root) {
			return reply{}, ErrNodeLeftOut
		}
		first := toolFirst[req.Tool]
		return reply{}, &MissingError{Package: first[0], Want: first[1]}
	}
	r.mu.Lock()
	if err := r.start(); err != nil {
		r.mu.Unlock()
		return reply{}, err
	}
	cmd := r.cmd // the Node the request goes to: the one a timeout kills
	parent, timeout := ctx, r.Timeout
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	r.nextID++
	id := r.nextID
	ch := make(chan reply, 1)
	r.waiting[id] = waiter{ch: ch, req: req}
	line, err := json.Marshal(struct {
		ID int `json:"id"`
		Request
	}{id, req})
	if err == nil {
		_, err = r.input.Write(append(line, '\n'))
	}
	r.mu.Unlock()
	if err != nil {
		return reply{}, fmt.Errorf("send to node: %w", err)
	}
	select {
	case <-ctx.Done():
		if timeout > 0 && parent.Err() == nil {
			r.mu.Lock()
			other := r.cmd != cmd || r.killed
			r.mu.Unlock()
			if other {
				// Another request's timeout killed this Node (or is killing it): its end is
				// this request's answer, which every request waiting on it gets.
				return answer(<-ch)
			}
			r.mu.Lock()
			running := r.waiting[id].running // what the runner said it ran, before Node's end takes the waiter
			r.mu.Unlock()
			r.kill(cmd)
			// Killed on time, unless the answer came as it was killed.
			select {
			case rep := <-ch:
				if rep.gone == nil {
					return answer(rep)
				}
			default:
			}
			return reply{}, &TimeoutError{Tool: req.Tool, After: timeout, Running: running}
		}
		return reply{}, ctx.Err()
	case rep := <-ch:
		return answer(rep)
	}
}

// answer is a reply's result: rep, or the error it carries.
func answer(rep reply) (reply, error) {
	switch {
	case rep.gone != nil:
		return reply{}, rep.gone
	case rep.Error != nil && rep.Error.Missing != "":
		return reply{}, &MissingError{Package: rep.Error.Missing, Want: rep.Error.Want, Spec: rep.Error.Spec}
	case rep.Error != nil && rep.Error.Want != "":
		return reply{}, &VersionError{Message: rep.Error.Message, Want: rep.Error.Want}
	case rep.Error != nil:
		e := rep.Error
		te := &ToolError{Message: e.Message, File: e.File, Line: e.Line, Column: e.Column, Outside: e.Outside, Note: e.Note, Crashed: e.Crashed, KernelOnly: e.KernelOnly}
		if e.Refusal != nil {
			te.Refused, te.Denied = e.Refusal.By, e.Refusal.What
		}
		return reply{}, te
	}
	return rep, nil
}

// Kill stops Node at once, whatever it is doing (a config that never returns).
func (r *Runner) Kill() { r.kill(nil) }

// kill is Kill of the Node cmd (nil: whichever runs): one started since for another request
// is left running.
func (r *Runner) kill(cmd *exec.Cmd) {
	r.mu.Lock()
	if cmd != nil && r.cmd != cmd {
		r.mu.Unlock()
		return
	}
	r.killed = true
	if r.input != nil {
		r.input.Close()
	}
	if r.cmd != nil && r.cmd.Process != nil {
		confine.Kill(r.cmd.Process) // from the thread that started it, under the kernel's fence
	}
	gone := r.gone
	r.mu.Unlock()
	if gone != nil {
		<-gone
	}
}

// Close stops Node: it closes Node's input and returns once Node has exited and its
// temporary folder is removed (a caller's process may end right after; the folder was left
// behind when it did), killing Node after closeWait.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	if r.input != nil {
		r.input.Close()
	}
	gone := r.gone
	r.mu.Unlock()
	if gone == nil {
		return
	}
	select {
	case <-gone:
	case <-time.After(closeWait):
		r.Kill()
	}
}
