package offline

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/miniapp/bundle/markup"
)

// cleanURL returns s as the URL parser sees it: leading and trailing C0 controls and spaces
// stripped, and ASCII tab and newline removed anywhere (URL Standard, "basic URL parser", steps
// 1 and 3). Entities are already decoded by the HTML parser.
func cleanURL(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= 0x20 {
		i++
	}
	for j > i && s[j-1] <= 0x20 {
		j--
	}
	s = s[i:j]
	// Three byte searches rather than ContainsAny: a data: URL can be a font of 100 KB, and
	// IndexByte reads it many times faster than a set lookup a byte.
	if strings.IndexByte(s, '\t') >= 0 || strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0 {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	return s
}

// Scheme returns the lower-cased scheme of the URL an attribute's value u is to the URL parser
// (its C0 controls and spaces at either end, and its tabs and newlines anywhere, left out:
// "java\tscript:" is a javascript: URL), or "" for a relative reference.
func Scheme(u string) string {
	s, _ := scheme(cleanURL(u))
	return s
}

// scheme returns the lower-cased scheme of a cleaned URL and the rest after its colon, or "" when
// the URL has none (a relative reference).
func scheme(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(s[:i]), s[i+1:]
		default:
			return "", s
		}
	}
	return "", s
}

// isOwn reports whether the raw URL u stays inside the document: empty, a fragment, or a scheme
// that fetches nothing from a server (data:, blob:, javascript:, mailto:, tel:, about:blank,
// about:srcdoc). Everything else loads, relative paths included, since a bundle has no files
// beside it.
func isOwn(u string) bool {
	c := cleanURL(u)
	if c == "" || c[0] == '#' {
		return true
	}
	sch, rest := scheme(c)
	switch sch {
	case "data", "blob", "javascript", "mailto", "tel":
		return true
	case "about":
		if i := strings.IndexAny(rest, "?#"); i >= 0 {
			rest = rest[:i]
		}
		return rest == "blank" || rest == "srcdoc"
	}
	return false
}

// isRemote reports whether the raw URL names another host: it has a scheme, or starts with
// two slashes (or backslashes, which the URL parser reads as slashes).
func isRemote(u string) bool {
	c := cleanURL(u)
	if sch, _ := scheme(c); sch != "" {
		return true
	}
	return len(c) >= 2 && (c[0] == '/' || c[0] == '\\') && (c[1] == '/' || c[1] == '\\')
}

// isData reports whether the raw URL is a data: URL.
func isData(u string) bool {
	sch, _ := scheme(cleanURL(u))
	return sch == "data"
}

// dataURL decodes a data: URL as the Fetch Standard's "data: URL processor" does: the
// fragment dropped, the media type before the first comma (leading and trailing whitespace
// stripped), the payload percent-decoded, then forgiving-base64-decoded when the type ends in
// ";base64" (spaces allowed before it). It returns the lower-cased MIME essence (text/plain
// when the type is empty or does not parse), the charset parameter, and the payload; ok is
// false when the URL is not a data: URL or does not decode, in which case the browser fetches
// nothing from it.
func dataURL(u string) (mime, charset string, payload []byte, ok bool) {
	sch, rest := scheme(cleanURL(u))
	if sch != "data" {
		return "", "", nil, false
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	comma := strings.IndexByte(rest, ',')
	if comma < 0 {
		return "", "", nil, false
	}
	typ := strings.Trim(rest[:comma], " \t\n\f\r")
	body := percentDecode(rest[comma+1:])
	b64 := false
	if i := strings.LastIndexByte(typ, ';'); i >= 0 && strings.EqualFold(strings.TrimLeft(typ[i+1:], " "), "base64") {
		b64 = true
		typ = typ[:i]
	}
	if strings.HasPrefix(typ, ";") {
		typ = "text/plain" + typ
	}
	mime, charset = parseMIME(typ)
	if !b64 {
		return mime, charset, body, true
	}
	dec, ok := forgivingBase64(body)
	return mime, charset, dec, ok
}

// parseMIME returns the lower-cased essence and charset parameter of a MIME type (MIME Sniffing
// Standard, "parse a MIME type"), or text/plain with no charset when it does not parse.
func parseMIME(s string) (essence, charset string) {
	typ, params, _ := strings.Cut(s, ";")
	typ = strings.ToLower(strings.Trim(typ, " \t\n\f\r"))
	t, sub, ok := strings.Cut(typ, "/")
	if !ok || t == "" || sub == "" || !isToken(t) || !isToken(sub) {
		return "text/plain", ""
	}
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.Trim(k, " \t\n\f\r"), "charset") && charset == "" {
			charset = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return typ, charset
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// forgivingBase64 decodes as the Infra Standard's "forgiving-base64 decode": ASCII
// whitespace removed, one or two trailing '=' allowed when the length is a multiple of four.
func forgivingBase64(body []byte) ([]byte, bool) {
	clean := make([]byte, 0, len(body))
	for _, c := range body {
		if c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r' {
			clean = append(clean, c)
		}
	}
	if len(clean)%4 == 0 {
		clean = bytes.TrimSuffix(clean, []byte("="))
		clean = bytes.TrimSuffix(clean, []byte("="))
	}
	if len(clean)%4 == 1 {
		return nil, false
	}
	dec, err := base64.RawStdEncoding.DecodeString(string(clean))
	if err != nil {
		// RawStdEncoding insists the unused bits of the last character are zero; the
		// forgiving decoder discards them.
		if len(clean) > 0 {
			if fixed, ok := zeroTrailingBits(clean); ok {
				if dec, err = base64.RawStdEncoding.DecodeString(string(fixed)); err == nil {
					return dec, true
				}
			}
		}
		return nil, false
	}
	return dec, true
}

// zeroTrailingBits clears the bits of the last base64 character that decode to nothing.
func zeroTrailingBits(s []byte) ([]byte, bool) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	i := strings.IndexByte(alphabet, s[len(s)-1])
	if i < 0 {
		return nil, false
	}
	switch len(s) % 4 {
	case 2:
		i &^= 0x0F
	case 3:
		i &^= 0x03
	default:
		return nil, false
	}
	out := append([]byte(nil), s...)
	out[len(out)-1] = alphabet[i]
	return out, true
}

// percentDecode decodes %XX sequences and leaves every other byte, a malformed % included, as
// it is (URL Standard, "percent-decode").
func percentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// spaceURLs splits a space-separated URL list (ping, attributionsrc).
func spaceURLs(s string) []markup.Span {
	var out []markup.Span
	i := 0
	for i < len(s) {
		for i < len(s) && markup.IsSpace(s[i]) {
			i++
		}
		start := i
		for i < len(s) && !markup.IsSpace(s[i]) {
			i++
		}
		if i > start {
			out = append(out, markup.Span{Off: start, Text: s[start:i]})
		}
	}
	return out
}

// splitURLs returns the items of a list separated by sep, each without the spaces around it,
// as an SVG animation's values list is read.
func splitURLs(s string, sep byte) []markup.Span {
	var out []markup.Span
	for start := 0; start <= len(s); {
		end := strings.IndexByte(s[start:], sep)
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		i, j := start, end
		for i < j && markup.IsSpace(s[i]) {
			i++
		}
		for j > i && markup.IsSpace(s[j-1]) {
			j--
		}
		if j > i {
			out = append(out, markup.Span{Off: i, Text: s[i:j]})
		}
		start = end + 1
	}
	return out
}

// linkAllowed reports whether u is an http: or https: URL whose host is one of hosts, where a
// host "*.example.com" allows every subdomain of example.com (but not example.com itself).
func linkAllowed(u string, hosts []string) bool {
	if len(hosts) == 0 {
		return false
	}
	c := cleanURL(u)
	sch, rest := scheme(c)
	if sch != "http" && sch != "https" {
		return false
	}
	// The URL parser treats backslashes as slashes in special schemes.
	rest = strings.ReplaceAll(rest, "\\", "/")
	p, err := url.Parse(sch + ":" + rest)
	if err != nil || p.User != nil {
		return false
	}
	host := strings.ToLower(p.Hostname())
	if host == "" {
		return false
	}
	for _, h := range hosts {
		h = strings.ToLower(h)
		if suffix, ok := strings.CutPrefix(h, "*."); ok {
			if strings.HasSuffix(host, "."+suffix) {
				return true
			}
		} else if host == h {
			return true
		}
	}
	return false
}

// googleFontsNote says how to self-host the families a Google Fonts stylesheet URL names
// (fonts.googleapis.com/css2?family=Roboto+Mono:wght@400;700&family=Inter, or the older
// css?family=Roboto:400,700|Inter): each is on npm as @fontsource/<family>, whose files the
// build inlines; a family asked for over a range (wght@100..900, a variable font) is
// @fontsource-variable/<family>, whose files hold the axis (@fontsource's hold one weight). Downloading the stylesheet does not work: it names the fonts on another
// host, and Google serves each browser its own.
func googleFontsNote(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !strings.EqualFold(u.Hostname(), "fonts.googleapis.com") {
		return "", false
	}
	var imports []string
	var pkgs []string
	add := func(family string, w fontAxes) {
		name := strings.ToLower(strings.Join(strings.Fields(family), "-"))
		pkg := "@fontsource/" + name
		if w.variable {
			pkg = "@fontsource-variable/" + name
		}
		if family == "" || slices.Contains(pkgs, pkg) {
			return
		}
		pkgs = append(pkgs, pkg)
		switch {
		case w.variable:
			file := "wght"
			if w.otherAxes {
				file = "full" // every axis the family has
			}
			imports = append(imports, "import \""+pkg+"/"+file+".css\"")
			if w.italic {
				imports = append(imports, "import \""+pkg+"/wght-italic.css\"")
			}
		case len(w.weights) == 0:
			imports = append(imports, "import \""+pkg+"\"")
		}
		for _, n := range w.weights {
			imports = append(imports, "import \""+pkg+"/"+n+".css\"")
		}
	}
	// The query is split by hand: url.Query drops a pair with a ';' (wght@400;700).
	for _, pair := range strings.Split(u.RawQuery, "&") {
		k, v, _ := strings.Cut(pair, "=")
		fam, err := url.QueryUnescape(v)
		if k != "family" || err != nil {
			continue
		}
		for _, one := range strings.Split(fam, "|") { // the older API lists families with |
			name, spec, _ := strings.Cut(one, ":")
			add(name, fontWeights(spec))
		}
	}
	if len(pkgs) == 0 {
		return "", false
	}
	return fmt.Sprintf("self-host the fonts, which npm has: npm install %s, then %s in a script (the build inlines them; a bundle has no network)",
		strings.Join(pkgs, " "), strings.Join(imports, "; ")), true
}

// fontAxes is what a Google Fonts family spec asks for: static weights (an italic one is
// 700-italic), or a variable font (a range on an axis), with italics, or with axes other
// than the weight.
type fontAxes struct {
	weights                     []string
	variable, italic, otherAxes bool
}

// fontWeights reads a Google Fonts family spec: "wght@400;700", "ital,wght@0,400;1,700",
// "wght@100..900", "opsz,wght@8..144,100..900", or the older "400,700italic".
func fontWeights(spec string) (a fontAxes) {
	var out []string
	axes, values, ok := strings.Cut(spec, "@")
	if !ok {
		for _, w := range strings.Split(spec, ",") {
			w = strings.TrimSpace(w)
			if n, italic := strings.CutSuffix(w, "italic"); italic && n != "" {
				out = append(out, n+"-italic")
			} else if n, italic := strings.CutSuffix(w, "i"); italic && n != "" {
				out = append(out, n+"-italic")
			} else if w != "" && strings.Trim(w, "0123456789") == "" {
				out = append(out, w)
			}
		}
		a.weights = out
		return a
	}
	names := strings.Split(axes, ",")
	for _, tuple := range strings.Split(values, ";") {
		parts := strings.Split(tuple, ",")
		if len(parts) != len(names) {
			continue
		}
		w, italic := "", false
		for i, n := range names {
			if strings.Contains(parts[i], "..") {
				a.variable = true
				a.otherAxes = a.otherAxes || n != "wght" && n != "ital"
			}
			switch n {
			case "wght":
				w = parts[i]
			case "ital":
				italic = parts[i] == "1"
			default:
				a.otherAxes = true
			}
		}
		if a.variable {
			a.italic = a.italic || italic
			continue
		}
		if w == "" || strings.Trim(w, "0123456789") != "" {
			continue // no weight: the package's default
		}
		if italic {
			w += "-italic"
		}
		out = append(out, w)
	}
	if !a.variable { // else the variable package's files hold every weight
		a.weights = out
	}
	return a
}

// cdnPackage reads the npm package, version and file a CDN URL serves (jsDelivr's /npm/,
// unpkg, esm.sh, Skypack, JSPM): "https://unpkg.com/htmx.org@2.0.4/dist/htmx.min.js" is
// htmx.org, 2.0.4, /dist/htmx.min.js.
func cdnPackage(raw string) (pkg, version, file string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", "", "", false
	}
	p := u.Path
	switch strings.ToLower(u.Hostname()) {
	case "cdn.jsdelivr.net", "fastly.jsdelivr.net":
		if p, ok = strings.CutPrefix(p, "/npm/"); !ok {
			return "", "", "", false
		}
	case "unpkg.com", "esm.sh", "cdn.skypack.dev", "esm.run":
		p = strings.TrimPrefix(p, "/")
	case "ga.jspm.io":
		if p, ok = strings.CutPrefix(p, "/npm:"); !ok {
			return "", "", "", false
		}
	default:
		return "", "", "", false
	}
	parts := strings.SplitN(p, "/", 3)
	name := parts[0]
	rest := parts[1:]
	if strings.HasPrefix(name, "@") && len(parts) > 1 {
		name += "/" + parts[1]
		rest = parts[2:]
	}
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name, version = name[:i], name[i+1:]
	}
	if len(rest) > 0 && rest[0] != "" {
		file = "/" + strings.Join(rest, "/")
	}
	if name == "" || strings.ContainsAny(name, " ?#") || strings.HasPrefix(name, "v1") && strings.Trim(name[1:], "0123456789") == "" {
		return "", "", "", false // esm.sh's /v135/… build paths
	}
	return name, version, file, true
}

// URLNote says how to take from npm what a URL serves, for a reference at place (a <link
// href>, a <script src>, an import, a CSS @import): a package from a CDN, or a Google Fonts
// stylesheet's families. ok is false for any other URL.
func URLNote(raw, place string) (string, bool) {
	if n, ok := cdnNote(raw, place); ok {
		return n, true
	}
	return googleFontsNote(raw)
}

// cdnNote says how to take from npm what a CDN URL serves: install the package, then name
// its file, which the build inlines, or import it by name.
func cdnNote(raw, place string) (string, bool) {
	pkg, version, file, ok := cdnPackage(raw)
	if !ok {
		return "", false
	}
	install := "npm install " + pkg
	if version != "" {
		install += "@" + version
	}
	switch {
	case strings.HasPrefix(place, "<link") && file != "":
		return fmt.Sprintf("%s, then link the package's file: href=%q (the build inlines it; a bundle has no network)", install, "node_modules/"+pkg+file), true
	case strings.HasPrefix(place, "<script") && file != "":
		return fmt.Sprintf("%s, then load the package's file: src=%q (the build inlines it; a bundle has no network), or import %q in a module script", install, "node_modules/"+pkg+file, pkg), true
	case strings.HasPrefix(place, "CSS"):
		return fmt.Sprintf("%s, then @import %q (the build inlines it; a bundle has no network)", install, pkg+file), true
	}
	return fmt.Sprintf("%s, then import %q: the build bundles it from node_modules (a bundle has no network)", install, pkg+strings.TrimSuffix(file, "/+esm")), true
}
