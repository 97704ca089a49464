package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// workspaceRoot returns the folder a build of the app in root may read: the nearest folder at
// or above root that holds a package.json with "workspaces", a pnpm-workspace.yaml or a
// lerna.json (Vite's rule for its dev server's fs.allow), else root itself. why says which
// applied, for messages.
func workspaceRoot(root string) (dir, why string) {
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
