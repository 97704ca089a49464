package pipeline

import "testing"

// TestDecodeStylesheet: a stylesheet file decoded as CSS Syntax 3 decodes it: a byte-order
// mark, else an @charset rule of exactly that form at the start, else UTF-8.
func TestDecodeStylesheet(t *testing.T) {
	for _, r := range []struct{ name, src, want string }{
		{"utf8", "a::after{content:\"café\"}", "a::after{content:\"café\"}"},
		{"utf8 mark", "\xef\xbb\xbfa{}", "a{}"},
		{"utf16le mark", "\xff\xfea\x00{\x00}\x00", "a{}"},
		{"utf16be mark", "\xfe\xff\x00a\x00{\x00}", "a{}"},
		{"latin1", "@charset \"iso-8859-1\";\na{content:\"caf\xe9\"}", "@charset \"iso-8859-1\";\na{content:\"café\"}"},
		{"windows-1252 by its latin1 label", "@charset \"latin1\";\na{content:\"\x80\"}", "@charset \"latin1\";\na{content:\"€\"}"},
		{"mark wins", "\xef\xbb\xbf@charset \"iso-8859-1\";a{content:\"é\"}", "@charset \"iso-8859-1\";a{content:\"é\"}"},
		{"utf-16 label is utf-8", "@charset \"utf-16\";a{content:\"é\"}", "@charset \"utf-16\";a{content:\"é\"}"},
		{"single quotes are no @charset", "@charset 'iso-8859-1';a{content:\"\xe9\"}", "@charset 'iso-8859-1';a{content:\"\xe9\"}"},
		{"not first", " @charset \"iso-8859-1\";a{content:\"\xe9\"}", " @charset \"iso-8859-1\";a{content:\"\xe9\"}"},
		{"no semicolon", "@charset \"iso-8859-1\" ;a{}", "@charset \"iso-8859-1\" ;a{}"},
		{"unknown label", "@charset \"klingon\";a{}", "@charset \"klingon\";a{}"},
		{"cut short", "@charset \"iso-8859-1", "@charset \"iso-8859-1"},
	} {
		t.Run(r.name, func(t *testing.T) {
			if got := string(decodeStylesheet([]byte(r.src))); got != r.want {
				t.Errorf("got %q, want %q", got, r.want)
			}
		})
	}
}
