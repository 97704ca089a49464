package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDecodeStylesheet: a stylesheet file decoded as CSS Syntax 3 decodes it: a byte-order
// mark, else an @charset rule of exactly that form at the start, else UTF-8.
func TestDecodeStylesheet(t *testing.T) {
	blank := func(n int) string { return strings.Repeat(" ", n) } // an @charset rule applied: written over
	for _, r := range []struct{ name, src, want string }{
		{"utf8", "a::after{content:\"café\"}", "a::after{content:\"café\"}"},
		{"utf8 mark", "\xef\xbb\xbfa{}", "a{}"},
		{"utf16le mark", "\xff\xfea\x00{\x00}\x00", "a{}"},
		{"utf16be mark", "\xfe\xff\x00a\x00{\x00}", "a{}"},
		{"latin1", "@charset \"iso-8859-1\";\na{content:\"caf\xe9\"}", blank(22) + "\na{content:\"café\"}"},
		{"windows-1252 by its latin1 label", "@charset \"latin1\";\na{content:\"\x80\"}", blank(18) + "\na{content:\"€\"}"},
		{"mark wins", "\xef\xbb\xbf@charset \"iso-8859-1\";a{content:\"é\"}", blank(22) + "a{content:\"é\"}"},
		{"utf-16 label is utf-8", "@charset \"utf-16\";a{content:\"é\"}", blank(18) + "a{content:\"é\"}"},
		{"single quotes are no @charset", "@charset 'iso-8859-1';a{content:\"\xe9\"}", "@charset 'iso-8859-1';a{content:\"\xe9\"}"},
		{"not first", " @charset \"iso-8859-1\";a{content:\"\xe9\"}", " @charset \"iso-8859-1\";a{content:\"\xe9\"}"},
		{"no semicolon", "@charset \"iso-8859-1\" ;a{}", "@charset \"iso-8859-1\" ;a{}"},
		{"unknown label", "@charset \"klingon\";a{}", "@charset \"klingon\";a{}"},
		{"cut short", "@charset \"iso-8859-1", "@charset \"iso-8859-1"},
	} {
		t.Run(r.name, func(t *testing.T) {
			if got, _ := decodeStylesheet([]byte(r.src), ""); string(got) != r.want {
				t.Errorf("got %q, want %q", got, r.want)
			}
		})
	}
}

// TestDecodeImportedStylesheet: a stylesheet another one @imports falls back to the referring
// stylesheet's encoding (CSS Syntax 3, "determine the fallback encoding"), after its own mark
// and @charset; the encoding returned is what its own @imports fall back to.
func TestDecodeImportedStylesheet(t *testing.T) {
	blank := func(n int) string { return strings.Repeat(" ", n) }
	for _, r := range []struct{ name, src, fallback, want, enc string }{
		{"the importer's", "a{content:\"caf\xe9\"}", "windows-1252", "a{content:\"café\"}", "windows-1252"},
		{"the importer's UTF-8", "a{content:\"café\"}", "utf-8", "a{content:\"café\"}", "utf-8"},
		{"its own @charset wins", "@charset \"utf-8\";a{content:\"café\"}", "windows-1252", blank(17) + "a{content:\"café\"}", "utf-8"},
		{"its own mark wins", "\xef\xbb\xbfa{content:\"café\"}", "windows-1252", "a{content:\"café\"}", "utf-8"},
		{"an @charset of no encoding falls back", "@charset \"klingon\";a{content:\"\xe9\"}", "windows-1252", "@charset \"klingon\";a{content:\"é\"}", "windows-1252"},
		{"a UTF-16 importer's is UTF-8", "a{content:\"café\"}", "utf-16le", "a{content:\"café\"}", "utf-8"},
		{"ISO-8859-2", "a{content:\"\xb1\"}", "iso-8859-2", "a{content:\"ą\"}", "iso-8859-2"},
	} {
		t.Run(r.name, func(t *testing.T) {
			got, enc := decodeStylesheet([]byte(r.src), r.fallback)
			if string(got) != r.want || enc != r.enc {
				t.Errorf("got %q from %s, want %q from %s", got, enc, r.want, r.enc)
			}
		})
	}
}

// TestImportedCharsetInputs: stylesheets read in their importer's encoding are named by their
// files among the page's style inputs (which bundle dev reloads by), and decoded so.
func TestImportedCharsetInputs(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"miniapp.toml": "id = \"page\"\nname = \"Page\"\ndescription = \"Stylesheets in ISO-8859-1.\"\nentry = \"index.html\"\n",
		"index.html":   "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>t</title><link rel=\"stylesheet\" href=\"./a.css\"></head><body><p id=\"b\">b</p></body></html>\n",
		"a.css":        "@charset \"iso-8859-1\";\n@import \"./b.css\";\n",
		"b.css":        "#b::after { content: \"caf\xe9\"; }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.css", "b.css"}; !slices.Equal(res.StyleInputs, want) {
		t.Errorf("style inputs %q, want %q", res.StyleInputs, want)
	}
	if !strings.Contains(string(res.HTML), "café") {
		t.Errorf("the built page has no café (b.css read in a.css's encoding)")
	}
	// esbuild warned that it would use UTF-8 instead of the charset bundle had decoded.
	for _, w := range res.Warnings {
		if strings.Contains(w.Text, "charset") {
			t.Errorf("a warning for a stylesheet bundle decoded: %v", w)
		}
	}
}
