package nodetool

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Node's permission model is the runner's second fence where the kernel's is not around it
// (NoFence, or a kernel without Landlock): the app's vite.config, PostCSS config and plugins
// are Node code, which the runner's loaders and fs guards refuse files outside Root but which
// code written to harm goes around (a child process that runs cat, a worker thread of its
// own, a file read through a link the app holds that a guard did not see). Under the model
// Node itself refuses what its flags do not grant: reading outside Root and the temporary
// folder, writing outside the temporary folder, starting a program (child_process), loading
// WASI, and process.binding.
//
// What it is granted, and why:
//   - --allow-worker: the runner's module hooks (its resolve hook, the config's loader) run on
//     a worker thread, which register starts only with it. A worker started with
//     execArgv: [] has no permissions at all (Node 20, measured), so the runner lets no other
//     worker start once its hooks run (runner.mjs).
//   - --allow-addons: Tailwind CSS's scanner and Lightning CSS, and what a vite.config's
//     plugins load (@tailwindcss/vite, @vitejs/plugin-react-swc), are native addons; an addon
//     the app ships of its own is native code the model does not hold.
//
// No program: sass-embedded's compiler is one, which would run with none of Node's
// permissions, and the right to start it would be the app's PostCSS config's too (it runs in
// the same process). The runner refuses sass-embedded outside the kernel's fence.
//
// The model follows links inside the granted folders out of them (Node's documentation says
// so); the runner's fs guards resolve every path, links followed, before Node opens it.

// permissionFlags returns the flags that start node under its permission model, reading root
// and tmp and writing tmp, or nil where this Node has none (before 20.12, where --allow-addons
// came: without it every native addon would be refused).
func permissionFlags(node, root, tmp string) []string {
	flag := permissionFlag(nodeVersion(node))
	if flag == "" {
		return nil
	}
	// The model's warnings (experimental, --allow-worker) would open every message of a Node
	// that stopped.
	return []string{flag, "--allow-fs-read=" + root, "--allow-fs-read=" + tmp, "--allow-fs-write=" + tmp, "--allow-worker", "--allow-addons",
		"--disable-warning=ExperimentalWarning", "--disable-warning=SecurityWarning"}
}

// permissionFlag is the flag that turns the model on in Node of version v ("v20.20.2"):
// --experimental-permission from 20.12 (21.6 in 21), --permission from 22.13 and 23.5, where
// it became stable; "" before.
func permissionFlag(v string) string {
	parts := strings.SplitN(strings.TrimPrefix(strings.TrimSpace(v), "v"), ".", 3)
	if len(parts) < 2 {
		return ""
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return ""
	}
	at := func(m, n int) bool { return major > m || (major == m && minor >= n) }
	switch {
	case major >= 24 || (major == 23 && minor >= 5) || (major == 22 && minor >= 13):
		return "--permission"
	case major >= 22 || (major == 21 && at(21, 6)) || (major == 20 && at(20, 12)):
		return "--experimental-permission"
	}
	return ""
}

// Model says what holds the app's Node code where the kernel's fence is not around Node: held
// is true where the Node on PATH runs it under its permission model; else why says why not
// ("Node v18.20.4 has no permission model"), or both are empty where no Node is on PATH (no
// Node code runs).
func Model() (held bool, why string) {
	node, err := exec.LookPath("node")
	if err != nil {
		return false, ""
	}
	if real, err := filepath.EvalSymlinks(node); err == nil {
		node = real // as the runner names it: its version is looked up once
	}
	return modelOf(node)
}

// modelOf is Model for the Node at node.
func modelOf(node string) (held bool, why string) {
	v := nodeVersion(node)
	if permissionFlag(v) != "" {
		return true, ""
	}
	if v == "" {
		return false, "Node does not run"
	}
	return false, "Node " + v + " has no permission model"
}

// ran holds the fences the Node processes this process started ran in, as Ran says them.
var ran sync.Map

// Ran returns, sorted, the fences the Node processes this process started ran in: "landlock
// v7" (the kernel's, a fence of Node's own), "node permission model", or why no fence but the
// runner's checks held Node ("Node v18.20.4 has no permission model"); none where no Node
// started. A caller that says which fences held a build asks once it is done: no Node is
// started, and no version looked up, to say it.
func Ran() []string {
	var out []string
	ran.Range(func(k, _ any) bool {
		out = append(out, k.(string))
		return true
	})
	slices.Sort(out)
	return out
}

var versions sync.Map // node's path → its version

// nodeVersion returns what node --version prints, "" where it does not run.
func nodeVersion(node string) string {
	if v, ok := versions.Load(node); ok {
		return v.(string)
	}
	out, _ := exec.Command(node, "--version").Output()
	v, _ := versions.LoadOrStore(node, strings.TrimSpace(string(out)))
	return v.(string)
}
