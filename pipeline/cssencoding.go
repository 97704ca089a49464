package pipeline

import (
	"bytes"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html/charset"
)

// decodeStylesheet decodes a stylesheet file to UTF-8 as a browser decodes it (CSS Syntax 3,
// "decode bytes" and "determine the fallback encoding"): a byte-order mark decides; else an
// @charset rule, when the file's first bytes are exactly @charset "label"; (an encoding of
// that label, UTF-16 read as UTF-8); else the environment encoding: for a stylesheet another
// one @imports, the referring stylesheet's (CSS Cascade 4, "the environment encoding of an
// imported style sheet is the encoding of the style sheet that imported it"), given as
// fallback; for one the page links, the page's, which is UTF-8 in every page bundle builds.
// esbuild reads every file as UTF-8: a stylesheet written in ISO-8859-1 with @charset
// "iso-8859-1" showed "caf\uFFFD" where the page as written showed "café", and so did one it
// @imported without an @charset of its own. It returns the text and the encoding it was
// decoded from ("utf-8" when read as UTF-8), which the stylesheets it @imports fall back to.
func decodeStylesheet(src []byte, fallback string) ([]byte, string) {
	out, enc := decodeBytes(src, fallback)
	return blankCharset(out), enc
}

// blankCharset writes spaces over the @charset rule that text, decoded to UTF-8, starts with
// when its label names an encoding: the rule has been applied (or a byte-order mark or UTF-8
// won over it), and esbuild, which reads every file as UTF-8, warned for the label it does not
// read ("UTF-8" will be used instead of unsupported charset "iso-8859-1") of a stylesheet that
// bundle decoded. Spaces keep every column of the first line. A label of no encoding stays,
// for esbuild's warning of it.
func blankCharset(text []byte) []byte {
	label, ok := charsetRule(text)
	if !ok {
		return text
	}
	if _, name := charset.Lookup(label); name == "" {
		return text
	}
	n := len(`@charset "`) + len(label) + len(`";`)
	out := bytes.Clone(text)
	for i := range n {
		out[i] = ' '
	}
	return out
}

// decodeBytes is decodeStylesheet before the @charset rule is blanked.
func decodeBytes(src []byte, fallback string) ([]byte, string) {
	switch {
	case bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}):
		return src[3:], "utf-8"
	case bytes.HasPrefix(src, []byte{0xFE, 0xFF}), bytes.HasPrefix(src, []byte{0xFF, 0xFE}):
		label := "utf-16le"
		if src[0] == 0xFE {
			label = "utf-16be"
		}
		enc, _ := charset.Lookup(label)
		if out, err := enc.NewDecoder().Bytes(src[2:]); err == nil {
			return out, label
		}
		return src, "utf-8"
	}
	if label, ok := charsetRule(src); ok {
		if _, name := charset.Lookup(label); name != "" {
			if isUTF8(name) || name == "utf-16be" || name == "utf-16le" {
				return src, "utf-8"
			}
			return decodeAs(src, name)
		}
		// A label of no encoding: the fallback, as with no @charset.
	}
	if fallback == "" || isUTF8(fallback) || strings.HasPrefix(fallback, "utf-16") {
		return src, "utf-8"
	}
	return decodeAs(src, fallback)
}

// charsetRule returns the label of the @charset rule src starts with: exactly
// @charset "label"; as CSS Syntax 3 reads it (the first 1,024 bytes).
func charsetRule(src []byte) (string, bool) {
	const prefix = `@charset "`
	head := src[:min(len(src), 1024)]
	if !bytes.HasPrefix(head, []byte(prefix)) {
		return "", false
	}
	end := bytes.IndexByte(head[len(prefix):], '"')
	if end < 0 || len(head) < len(prefix)+end+2 || head[len(prefix)+end+1] != ';' {
		return "", false
	}
	return string(head[len(prefix) : len(prefix)+end]), true
}

// decodeAs decodes src from the encoding name (the WHATWG Encoding Standard's), or returns it
// as UTF-8 when it cannot.
func decodeAs(src []byte, name string) ([]byte, string) {
	enc, _ := charset.Lookup(name)
	if enc == nil {
		return src, "utf-8"
	}
	out, err := enc.NewDecoder().Bytes(src)
	if err != nil {
		return src, "utf-8"
	}
	return out, name
}

// cssEncoding is the PluginData of a stylesheet decoded from an encoding other than UTF-8:
// the encoding the stylesheets it @imports fall back to.
type cssEncoding string

// charsetSuffix, and the encoding's name after it, marks a stylesheet @imported by one in
// another encoding than UTF-8: its fallback encoding. A suffix, not PluginData, so that a
// file @imported by two stylesheets of two encodings is two stylesheets, as in the browser.
const charsetSuffix = "?miniapp-charset="

// importedCharset resolves an @import of a stylesheet decoded from an encoding other than
// UTF-8 to the file with that encoding as its fallback (charsetSuffix).
func (b *bundler) importedCharset(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: `.*`, Namespace: "file"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		enc, ok := original(a.PluginData).(cssEncoding)
		if !ok || a.Kind != api.ResolveCSSImportRule || !askedBy(a.PluginData).answers(byCharset) {
			return api.OnResolveResult{}, nil
		}
		r := pb.Resolve(a.Path, again(a, byCharset))
		if len(r.Errors) > 0 || r.Namespace != "file" || r.Suffix != "" || !isStylesheet(r.Path) {
			return api.OnResolveResult{}, nil // as esbuild and the other plugins resolve it
		}
		return api.OnResolveResult{Path: r.Path, Namespace: "file", Suffix: charsetSuffix + string(enc)}, nil
	})
}
