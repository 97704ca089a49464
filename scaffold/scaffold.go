// Package scaffold writes a new mini app from a template (bundle init): a commented manifest,
// the page, sources that register one read tool and one write tool and answer the host's
// ui/get-context, the SDK's declarations for editors, and for React a package.json with pinned
// versions. Every template builds, serves in bundle dev and renders clean as written.
package scaffold

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/miniapp/bundle/manifest"
	"github.com/miniapp/bundle/sdk"
)

//go:embed templates
var templates embed.FS

// Templates are the templates Write knows, the default first.
var Templates = []string{"ts", "react", "html"}

// ErrNotEmpty is returned (wrapped) by Write for a folder that already holds files.
var ErrNotEmpty = errors.New("the folder is not empty")

// Write writes the template into dir (created when missing) and returns the files written,
// slash-separated and relative to dir, sorted. The app's id and name come from the folder's
// name. A folder that holds anything is refused unless force is set; then only the
// template's files are overwritten.
func Write(dir, template string, force bool) ([]string, error) {
	if !slices.Contains(Templates, template) {
		return nil, fmt.Errorf("unknown template %q: the templates are %s", template, strings.Join(Templates, ", "))
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 && !force {
		return nil, fmt.Errorf("%w: %s holds %s; pass --force to write the template's files over it, or name a new folder", ErrNotEmpty, dir, entries[0].Name())
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	id, name := manifest.IDFor(filepath.Base(abs))
	root := path.Join("templates", template)
	var written []string
	err = fs.WalkDir(templates, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, root+"/")
		if rel == "gitignore" {
			rel = ".gitignore" // embed leaves dotfiles out
		}
		b, err := templates.ReadFile(p)
		if err != nil {
			return err
		}
		text := strings.NewReplacer("{{id}}", id, "{{name}}", name).Replace(string(b))
		if err := writeFile(dir, rel, text); err != nil {
			return err
		}
		written = append(written, rel)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := writeFile(dir, "miniapp-sdk.d.ts", sdk.Types()); err != nil {
		return nil, err
	}
	written = append(written, "miniapp-sdk.d.ts")
	slices.Sort(written)
	return written, nil
}

func writeFile(dir, rel, text string) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}
