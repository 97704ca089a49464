package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// workspaceRoot returns the folder a build of the app in root may read: the nearest folder at
// or above root that holds a package.json with "workspaces", a pnpm-workspace.yaml or a
// lerna.json (Vite's rule for its dev server's fs.allow), else root itself. why says which
// applied, for messages. Where Fence found it for root, that answer is the build's: the
// process Fence confines reads nothing outside it, and looking again (a stat of two files
// and a read of package.json in each folder up to /) cost the build as much as finding it.
func workspaceRoot(root string) (dir, why string) {
	if w, ok := fencedRoots.Load(root); ok {
		w := w.([2]string)
		return w[0], w[1]
	}
	return findWorkspaceRoot(root)
}

// fencedRoots holds the workspace roots Fence found, by the app's root: [dir, why].
var fencedRoots sync.Map

// findWorkspaceRoot is workspaceRoot, looked for.
func findWorkspaceRoot(root string) (dir, why string) {
	for d := root; ; d = filepath.Dir(d) {
		for _, f := range []string{"pnpm-workspace.yaml", "lerna.json"} {
			if st, err := os.Stat(filepath.Join(d, f)); err == nil && !st.IsDir() {
				return d, "its " + f
			}
		}
		if b, err := os.ReadFile(filepath.Join(d, "package.json")); err == nil {
			var pkg struct {
				Workspaces json.RawMessage `json:"workspaces"`
			}
			if json.Unmarshal(b, &pkg) == nil && len(pkg.Workspaces) > 0 && string(pkg.Workspaces) != "null" {
				return d, `its package.json's "workspaces"`
			}
		}
		if filepath.Dir(d) == d {
			return root, ""
		}
	}
}
