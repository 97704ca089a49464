package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/internal/rootpath"
)

// ErrOutside is returned (wrapped) by Resolve for a path that leaves the app folder.
var ErrOutside = errors.New("leaves the app folder")

// Resolve returns the file system path of rel, a slash-separated path inside the app folder,
// after checking that neither rel nor any symbolic link on the way leads outside Root. It does
// not read the file. A path that leaves the folder returns an error wrapping ErrOutside; a
// missing file returns one wrapping fs.ErrNotExist.
func (m *Manifest) Resolve(rel string) (string, error) {
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("%s: %w", rel, ErrOutside)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: %w", rel, ErrOutside)
	}
	// Nothing outside Root is looked at: a link that leads out is refused whether or not its
	// target exists.
	real, err := rootpath.Resolve(filepath.Join(m.Root, clean), m.Root)
	if errors.Is(err, rootpath.ErrOutside) {
		return "", fmt.Errorf("%s: %w through a symbolic link", rel, ErrOutside)
	}
	if err != nil {
		return "", err
	}
	return real, nil
}

// rootOf makes dir absolute and resolves its symbolic links.
func rootOf(dir string) (string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return filepath.Abs(root)
}

// checkFiles checks that the entry and icon exist inside the app folder.
func checkFiles(m *Manifest, src []byte) diag.List {
	v := &validator{file: m.File, src: src, lines: diag.NewLines(src), json: strings.HasSuffix(m.File, ".json")}
	check := func(field, rel, what string) {
		if rel == "" {
			return
		}
		p, err := m.Resolve(rel)
		switch {
		case errors.Is(err, ErrOutside):
			v.err(field, fmt.Sprintf("%s %q %v", field, rel, strings.TrimPrefix(err.Error(), rel+": ")), "keep every file the app uses inside its folder")
		case errors.Is(err, fs.ErrNotExist):
			v.err(field, fmt.Sprintf("%s %q does not exist", field, rel), fmt.Sprintf("create %s, or name the %s the app has", filepath.Join(m.Dir, filepath.FromSlash(rel)), what))
		case err != nil:
			v.err(field, fmt.Sprintf("%s %q cannot be read: %v", field, rel, err), "check the file's permissions")
		default:
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				v.err(field, fmt.Sprintf("%s %q is a folder", field, rel), fmt.Sprintf("name a file: the %s", what))
			}
		}
	}
	check("entry", m.Entry, "entry page or script")
	check("icon", m.Icon, "icon")
	v.list.Sort()
	return v.list
}
