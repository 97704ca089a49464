// Package rootpath resolves a path's symbolic links the way the kernel does, component by
// component, without looking at anything outside a root folder: the path checks' resolver
// (the manifest's and the build's). Once the path, or a link's target, leaves the root, the
// answer is ErrOutside, whether or not what lies there exists: a build's messages are then the
// same whatever is outside (Landlock, the kernel's fence, does not restrict stat, so a build
// that looked there could tell a file outside from none, and say so).
package rootpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrOutside is returned (wrapped) by Resolve for a path that leaves the root.
var ErrOutside = errors.New("leaves the root")

// maxLinks is how many symbolic links one resolution follows, as Linux's MAXSYMLINKS (40).
const maxLinks = 40

// Resolve returns the real path of p (absolute, or relative to the working folder), its
// symbolic links resolved, when it is root or inside it. root must be absolute and real (its
// own links resolved). It looks at (lstat, readlink) only paths inside root: a path that is
// outside, or a link on the way whose target is, gives an error wrapping ErrOutside, and one
// that is inside but missing an error wrapping fs.ErrNotExist (a dangling link inside the root
// that would lead out is ErrOutside: where it leads decides, not whether it is there).
func Resolve(p, root string) (string, error) {
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		p = abs
	}
	root = filepath.Clean(root)
	vol := filepath.VolumeName(p) // "" but on Windows
	cur := vol + string(filepath.Separator)
	rest := strings.Split(filepath.ToSlash(p[len(vol):]), "/")
	links := 0
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, comp)
		switch {
		case Inside(next, root) && next != root:
		case next == root || isAncestor(next, root):
			// root is real: its folders and itself are no links.
			cur = next
			continue
		default:
			return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrOutside}
		}
		st, err := os.Lstat(next)
		if err != nil {
			return "", &fs.PathError{Op: "resolve", Path: p, Err: notExist(err)}
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			if len(rest) > 0 && !st.IsDir() && hasComponent(rest) {
				return "", &fs.PathError{Op: "resolve", Path: p, Err: fs.ErrNotExist}
			}
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: p, Err: fmt.Errorf("more than %d symbolic links", maxLinks)}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", &fs.PathError{Op: "resolve", Path: p, Err: err}
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			cur, target = v+string(filepath.Separator), target[len(v):]
		}
		rest = append(strings.Split(filepath.ToSlash(target), "/"), rest...)
	}
	if cur != root && !Inside(cur, root) {
		return "", &fs.PathError{Op: "resolve", Path: p, Err: ErrOutside}
	}
	return cur, nil
}

// Inside reports whether the clean absolute path p is dir or beneath it, by name.
func Inside(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// isAncestor reports whether the clean absolute path p is a folder above dir, by name.
func isAncestor(p, dir string) bool {
	return p != dir && Inside(dir, p)
}

// hasComponent reports whether the components left name anything (not only "", ".").
func hasComponent(rest []string) bool {
	for _, c := range rest {
		if c != "" && c != "." {
			return true
		}
	}
	return false
}

// notExist gives fs.ErrNotExist for a missing component (ENOTDIR too: a file where a folder
// is named), and the error otherwise.
func notExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fs.ErrNotExist
	}
	return err
}
