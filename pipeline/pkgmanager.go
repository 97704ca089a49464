package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// The app's package manager, for advice that fixes what it names: the command that installs
// a package as the app's own installs are made (pnpm's add keeps the lock pnpm reads), and
// Yarn Plug'n'Play, whose packages Node cannot load without Yarn's loader.

// packageManager returns the command that adds development packages to the app in root, by
// the lock file found from root up to readRoot (pnpm-lock.yaml, yarn.lock, bun.lock,
// package-lock.json), else by pnpm's node_modules/.modules.yaml; npm when nothing says.
func packageManager(root, readRoot string) string {
	for dir := root; ; dir = filepath.Dir(dir) {
		for _, lock := range []struct{ file, cmd string }{
			{"pnpm-lock.yaml", "pnpm add -D"}, {"yarn.lock", "yarn add -D"}, {"bun.lock", "bun add -d"}, {"bun.lockb", "bun add -d"},
			{"package-lock.json", "npm install -D"}, {filepath.Join("node_modules", ".modules.yaml"), "pnpm add -D"},
		} {
			if st, err := os.Stat(filepath.Join(dir, lock.file)); err == nil && !st.IsDir() {
				return lock.cmd
			}
		}
		if dir == readRoot || filepath.Dir(dir) == dir || !underDir(dir, readRoot) {
			return "npm install -D"
		}
	}
}

// installed reports whether the package name is in a node_modules folder from root up to
// readRoot (a link to it counts: pnpm links the app's own dependencies there).
func installed(root, readRoot, name string) bool {
	for dir := root; ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json")); err == nil && !st.IsDir() {
			return true
		}
		if dir == readRoot || filepath.Dir(dir) == dir || !underDir(dir, readRoot) {
			return false
		}
	}
}

// installedVersion returns the version of the package name installed from root up to
// readRoot, "" when none is.
func installedVersion(root, readRoot, name string) string {
	for dir := root; ; dir = filepath.Dir(dir) {
		if data, err := readIn(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json"), readRoot); err == nil {
			var pj struct {
				Version string `json:"version"`
			}
			json.Unmarshal(data, &pj)
			return pj.Version
		}
		if dir == readRoot || filepath.Dir(dir) == dir || !underDir(dir, readRoot) {
			return ""
		}
	}
}

// yarnPnP returns the Plug'n'Play file of a Yarn install from root up to readRoot (.pnp.cjs,
// .pnp.js), "" for none.
func yarnPnP(root, readRoot string) string {
	for dir := root; ; dir = filepath.Dir(dir) {
		for _, f := range []string{".pnp.cjs", ".pnp.js"} {
			if st, err := os.Stat(filepath.Join(dir, f)); err == nil && !st.IsDir() {
				return filepath.Join(dir, f)
			}
		}
		if dir == readRoot || filepath.Dir(dir) == dir || !underDir(dir, readRoot) {
			return ""
		}
	}
}

// tailwindPackages are the packages to install for Tailwind CSS's compiler: @tailwindcss/postcss
// brings @tailwindcss/node and @tailwindcss/oxide, which bundle runs, wherever the package
// manager puts them; tailwindcss too when it is missing.
func tailwindPackages(root, readRoot string) string {
	if installed(root, readRoot, "tailwindcss") {
		return "@tailwindcss/postcss"
	}
	return strings.Join([]string{"tailwindcss", "@tailwindcss/postcss"}, " ")
}
