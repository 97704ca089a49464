package offline

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/internal/rootpath"
)

// SizesBeside returns an Options.FileSize for a page in the folder dir: the size of the file
// a relative URL of the page names there (stat, never read), false for any other URL, one
// that leaves dir (by name, or through a symbolic link, followed by the path checks' resolver,
// which looks at nothing outside dir: a link to a file outside gave that file's size), or a
// file that is not there.
func SizesBeside(dir string) func(string) (int64, bool) {
	root, err := filepath.EvalSymlinks(dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	return func(u string) (int64, bool) {
		if err != nil {
			return 0, false
		}
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil || p.Scheme != "" || p.Host != "" || p.Path == "" || strings.HasPrefix(p.Path, "/") {
			return 0, false
		}
		rel := path.Clean(p.Path)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return 0, false
		}
		real, rerr := rootpath.Resolve(filepath.Join(root, filepath.FromSlash(rel)), root)
		if rerr != nil {
			return 0, false
		}
		st, serr := os.Stat(real)
		if serr != nil || !st.Mode().IsRegular() {
			return 0, false
		}
		return st.Size(), true
	}
}
