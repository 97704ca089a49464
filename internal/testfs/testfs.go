// Package testfs holds the file-tree helpers the tests of several packages share.
package testfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Copy copies the tree src to dst, links as links, leaving out the top-level entries named
// in skip (such as "dist").
func Copy(t testing.TB, src, dst string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if slices.Contains(skip, rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// HardLink copies the tree src to dst with hard links (fast, and no symbolic link a build
// refuses), keeping the symbolic links that stay inside src and leaving out the others (the
// workspace packages of an npm workspace's node_modules).
func HardLink(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil || filepath.IsAbs(link) || strings.HasPrefix(filepath.Clean(filepath.Join(filepath.Dir(rel), link)), "..") {
				return nil
			}
			return os.Symlink(link, target)
		}
		return os.Link(p, target)
	})
	if err != nil {
		t.Fatalf("%v (run scripts/test, which installs the npm packages of the test apps)", err)
	}
}
