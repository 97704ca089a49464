package pipeline

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/miniapp/bundle/diag"
)

// TestKeepSourceMap: a build that keeps its source map in memory makes the same page, warns
// of nothing --sourcemap would, and maps a place in the page back to the author's file,
// line and column, past non-ASCII text and the "<"s the build escaped on the same line (in a
// string, in template literals, before a regular expression).
func TestKeepSourceMap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mapped")
	src := "const banner = \"héllo 😀 </script> world\" + String.raw`<!--<script>${1}</script>`;\n" +
		"document.body.append(banner, String.raw`a</script>`, 1</script/.source.length);\n" +
		"export function fail(n: number) {\n" +
		"  return (n as any).toFixed2();\n" +
		"}\n" +
		"(window as any).marker = () => \"MARK_ME\";\n"
	writeScriptApp(t, dir, "mapped", src)
	plain, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := Build(context.Background(), dir, Options{NoWrite: true, KeepSourceMap: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.HTML, kept.HTML) {
		t.Fatal("keeping the source map changed the page")
	}
	if plain.SourceMap != nil || kept.SourceMap == nil {
		t.Fatalf("SourceMap: %v without, %v with KeepSourceMap", plain.SourceMap, kept.SourceMap)
	}
	for _, w := range kept.Warnings {
		if strings.Contains(w.Text, "sourcemap") {
			t.Errorf("a warning of --sourcemap without it: %s", diag.FormatText(diag.List{w}, false))
		}
	}
	// The marker's place in the page, as Chromium counts it (1-based, UTF-16 columns).
	page := string(kept.HTML)
	off := strings.Index(page, `"MARK_ME"`)
	if off < 0 {
		t.Fatal("no marker in the page")
	}
	line := strings.Count(page[:off], "\n") + 1
	col := len(utf16.Encode([]rune(page[strings.LastIndexByte(page[:off], '\n')+1:off]))) + 1
	pos, ok := kept.SourceMap.Locate(line, col)
	wantCol := strings.Index(strings.Split(src, "\n")[5], `"MARK_ME"`) + 1
	if !ok || pos.File != filepath.ToSlash(filepath.Join(dir, "main.ts")) || pos.Line != 6 || pos.Column != wantCol || !strings.Contains(pos.LineText, "MARK_ME") {
		t.Errorf("page %d:%d is %+v (%v), want main.ts:6:%d", line, col, pos, ok, wantCol)
	}
	if _, ok := kept.SourceMap.Locate(1, 1); ok {
		t.Errorf("the page's first line is mapped")
	}
}
