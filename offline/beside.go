package offline

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// SizesBeside returns an Options.FileSize for a page in the folder dir: the size of the file
// a relative URL of the page names there (stat, never read), false for any other URL, one
// that leaves dir, or a file that is not there.
func SizesBeside(dir string) func(string) (int64, bool) {
	return func(u string) (int64, bool) {
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil || p.Scheme != "" || p.Host != "" || p.Path == "" || strings.HasPrefix(p.Path, "/") {
			return 0, false
		}
		rel := path.Clean(p.Path)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return 0, false
		}
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || !st.Mode().IsRegular() {
			return 0, false
		}
		return st.Size(), true
	}
}
