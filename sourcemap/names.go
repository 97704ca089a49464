package sourcemap

import (
	"net/url"
	"strings"
)

// A map's sources are URLs, resolved against the map's own URL (the format's "sources"
// field); a file's path is one once its bytes that a URL reads otherwise are escaped. esbuild
// escapes "%" and the bytes outside ASCII; a path that bundle writes into a map (a source
// named from another folder, through folders whose names hold "#" or "?") is escaped so too,
// and read back by Path.

// HasScheme reports whether the source s starts with a URL scheme ("miniapp-sdk:…",
// "webpack://…"), as the URL standard reads one: a letter, then letters, digits, "+", "-"
// or ".", then ":". Such a source names no file.
func HasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// Path returns the slash-separated path that the source s, a relative URL without a scheme,
// names: its escapes decoded. ok is false for a source with a scheme, or one whose escapes
// do not decode (it is then no path bundle wrote or esbuild did).
func Path(s string) (p string, ok bool) {
	if HasScheme(s) {
		return "", false
	}
	p, err := url.PathUnescape(s)
	return p, err == nil
}

// URL returns the slash-separated relative path p as a map's source names it: "%", "#",
// "?", a backslash (a slash in a file: URL), control bytes and the bytes outside ASCII
// escaped, and a ":" in the first segment (it would read as a scheme). Path(URL(p)) is p.
func URL(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	first := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' {
			first = false
		}
		if c == '%' || c == '#' || c == '?' || c == '\\' || c < 0x20 || c >= 0x7f || (first && c == ':') {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
