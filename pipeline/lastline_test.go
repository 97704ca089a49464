package pipeline

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorInLastLine: an app script the build ends with an empty export (moduleMark) whose
// last line is left open runs on into the mark, and esbuild's message was placed there, past
// the file's last line, quoting bundle's code (main.ts:4:1: Unexpected ";", on the line
// ";export {};"). The message is esbuild's for the file as written, at its place.
func TestErrorInLastLine(t *testing.T) {
	for _, row := range []struct {
		name, file, src string
		line, col       int
		text            string
	}{
		{"open_call", "main.ts", "const img = new Image()\nimg.src = \"/y.png\"\ndocument.body.append(img, (", 3, 28, "Unexpected end of file"},
		{"open_call_newline", "main.ts", "console.log(1,\n", 2, 1, "Unexpected end of file"},
		{"open_comment", "main.js", "const a = 1\n/* open", 2, 8, `Expected "*/" to terminate multi-line comment`},
		{"open_array", "main.tsx", "export const a = <p>{[1,", 1, 25, "Unexpected end of file"},
	} {
		t.Run(row.name, func(t *testing.T) {
			dir := writeApp(t, map[string]string{
				"miniapp.toml": "id = \"s\"\nname = \"S\"\ndescription = \"d\"\nentry = \"index.html\"\n",
				"index.html":   `<!doctype html><meta charset="utf-8"><script type="module" src="./` + row.file + `"></script><p>x</p>`,
				row.file:       row.src,
				"public/y.png": "\x89PNG\r\n\x1a\n",
			})
			errs := refusedErrors(t, dir)
			if len(errs) != 1 {
				t.Fatalf("errors: %v", errs)
			}
			e := errs[0]
			lines := strings.Split(row.src, "\n")
			if filepath.Base(e.File) != row.file || e.Line != row.line || e.Column != row.col || e.LineText != lines[row.line-1] || e.Text != row.text {
				t.Errorf("%s:%d:%d: %s (line %q), want %s:%d:%d: %s (line %q)", e.File, e.Line, e.Column, e.Text, e.LineText, row.file, row.line, row.col, row.text, lines[row.line-1])
			}
		})
	}
}
