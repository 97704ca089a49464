package pipeline

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// signatures are the first bytes of each kind of file a bundle inlines, by extension: a file
// whose bytes are something else (an HTML error page saved as logo.png, a font that is a
// text file) would be inlined and fail in the browser with no word.
var signatures = map[string]struct {
	kind  string
	match func(b []byte) bool
}{
	".png":  {"a PNG image", prefix("\x89PNG\r\n\x1a\n")},
	".jpg":  {"a JPEG image", prefix("\xff\xd8\xff")},
	".jpeg": {"a JPEG image", prefix("\xff\xd8\xff")},
	".gif": {"a GIF image", func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a"))
	}},
	".webp":  {"a WebP image", riff("WEBP")},
	".avif":  {"an AVIF image", ftyp("avif", "avis", "mif1", "msf1")},
	".ico":   {"an icon", prefix("\x00\x00\x01\x00")},
	".bmp":   {"a BMP image", prefix("BM")},
	".svg":   {"an SVG image", isSVG},
	".woff":  {"a WOFF font", prefix("wOFF")},
	".woff2": {"a WOFF2 font", prefix("wOF2")},
	".ttf": {"a TrueType font", func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("\x00\x01\x00\x00")) || bytes.HasPrefix(b, []byte("true")) || bytes.HasPrefix(b, []byte("OTTO"))
	}},
	".otf": {"an OpenType font", func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("OTTO")) || bytes.HasPrefix(b, []byte("\x00\x01\x00\x00"))
	}},
	".mp3": {"an MP3 file", func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("ID3")) || len(b) > 1 && b[0] == 0xff && b[1]&0xe0 == 0xe0
	}},
	".wav":  {"a WAV file", riff("WAVE")},
	".ogg":  {"an Ogg file", prefix("OggS")},
	".mp4":  {"an MP4 file", ftyp()},
	".webm": {"a WebM file", prefix("\x1a\x45\xdf\xa3")},
}

func prefix(p string) func([]byte) bool {
	return func(b []byte) bool { return bytes.HasPrefix(b, []byte(p)) }
}

func riff(form string) func([]byte) bool {
	return func(b []byte) bool { return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == form }
}

// ftyp matches an ISO media file (its box "ftyp" at byte 4), of one of brands when given.
func ftyp(brands ...string) func([]byte) bool {
	return func(b []byte) bool {
		if len(b) < 12 || string(b[4:8]) != "ftyp" {
			return false
		}
		if len(brands) == 0 {
			return true
		}
		head := string(b[8:min(len(b), 64)])
		for _, br := range brands {
			if strings.Contains(head, br) {
				return true
			}
		}
		return false
	}
}

// isSVG reports whether b is SVG markup: an <svg> element near the start, and no HTML
// document around it.
func isSVG(b []byte) bool {
	head := strings.ToLower(string(b[:min(len(b), 4096)]))
	if strings.Contains(head, "<html") || strings.Contains(head, "<!doctype html") {
		return false
	}
	return strings.Contains(head, "<svg")
}

// sniff returns an error when the file name's bytes data are not what its extension says.
func sniff(name string, data []byte) error {
	sig, ok := signatures[strings.ToLower(path.Ext(name))]
	if !ok {
		return nil
	}
	if len(data) == 0 {
		return fmt.Errorf("%s is empty, not %s", name, sig.kind)
	}
	if sig.match(data) {
		return nil
	}
	return fmt.Errorf("%s is not %s: it starts with %s%s", name, sig.kind, describeStart(data), guess(data))
}

// describeStart shows the first bytes of data: as text when they are text, else in hex.
func describeStart(data []byte) string {
	head := data[:min(len(data), 24)]
	if utf8.Valid(head) && !bytes.ContainsFunc(head, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\r' && r != '\t' }) {
		return fmt.Sprintf("%q", strings.TrimSpace(string(head)))
	}
	return fmt.Sprintf("% x", head[:min(len(head), 8)])
}

// guess says what the bytes are, when it is a common mistake.
func guess(data []byte) string {
	head := strings.ToLower(strings.TrimSpace(string(data[:min(len(data), 512)])))
	switch {
	case strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html"):
		return " (an HTML page, as a download of an error or login page saves)"
	case strings.HasPrefix(head, "version https://git-lfs"):
		return " (a Git LFS pointer: run git lfs pull)"
	case strings.HasPrefix(head, "{") || strings.HasPrefix(head, "["):
		return " (JSON text)"
	}
	for ext, sig := range signatures {
		if ext != ".svg" && sig.match(data) {
			return fmt.Sprintf(" (it is %s: rename it to %s)", sig.kind, ext)
		}
	}
	return ""
}
