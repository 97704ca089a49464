package pipeline

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
)

// TestNodePermissionSameBytes: where the kernel's fence is off (NoFence, BUNDLE_FENCE=off),
// the Node processes of the build run under Node's permission model (nodetool's
// permission.go), and every app whose Node code ran fenced builds the same bytes under it: the
// vite.configs of two examples (which import vite and its plugins; the four others did too, 8 minutes on a busy machine), the CSS tools' test apps
// (PostCSS, Tailwind CSS with its native scanner and Lightning CSS, Sass, Less, Stylus) and the
// order-book sample.
func TestNodePermissionSameBytes(t *testing.T) {
	dirs := []string{sampleDir(t, "order-book")}
	for _, ex := range []string{"react", "vue"} {
		dirs = append(dirs, filepath.Join("testdata", "examples", "basic-server-"+ex))
	}
	for _, app := range []string{"postcss", "tailwind-postcss", "tailwind", "sass", "less", "stylus"} {
		dirs = append(dirs, filepath.Join("testdata", "apps", app))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var pages [][]byte
			for _, noFence := range []bool{false, true} {
				res, err := Build(context.Background(), dir, Options{NoWrite: true, NoFence: noFence})
				if err != nil {
					t.Fatalf("NoFence %v: %v", noFence, err)
				}
				pages = append(pages, res.HTML)
			}
			if !bytes.Equal(pages[0], pages[1]) {
				t.Errorf("the page under Node's permission model differs from the fenced one (%d and %d bytes)", len(pages[1]), len(pages[0]))
			}
		})
	}
}
