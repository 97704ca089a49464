package offline

import (
	"fmt"
	"path"
	"strings"
)

// The notes of Options.SingleFile: the same findings, worded for someone who can change only
// the one file (a model that writes a page no build reads). No note names a build, a package
// manager, an app folder or a manifest; each says what to write in the page instead.

const (
	pageNoScript = "a page is one file, with no network and nothing beside it"
	openThrough  = "the SDK's openLink(url), or the bridge's ui/open-link request; the SDK that bundle pin adds sends it for a click on <a href>"
)

// pageNotes words the notes that do not depend on what the URL names.
var pageNotes = map[string]string{
	noteLinkRelative:    "a page has no pages beside it: link to a fragment (#section) of this page and show that part there, or link to a full https: URL, which opens through the host (" + openThrough + ")",
	noteForm:            `a page cannot submit a form anywhere: remove the action and handle the submit in a <script>: form.addEventListener("submit", (e) => { e.preventDefault(); … })`,
	notePing:            "remove the attribute: it reports to a server, and " + pageNoScript,
	noteRefresh:         "remove the <meta http-equiv=\"refresh\">: a page never navigates itself; open links through the host (" + openThrough + ")",
	noteValuesSplit:     noteValuesSplit,
	noteAnimation:       "write the value as a data: URL, or set the href from a <script>",
	noteJavascriptFrame: noteJavascriptFrame,
	noteBase:            "remove <base>: every URL of a page that is one file is inline",
	notePreconnect:      "remove the <link>: the page connects to nothing",
	noteFrameRelative:   "a page has no pages beside it: put the frame's markup in its srcdoc, or show it in the page itself",
	noteManifest:        "remove the manifest attribute: browsers dropped the application cache it names",
	notePlugin:          notePlugin,
	noteSpeculation:     "remove the speculation rules: a page that is one file has nothing to prefetch",
	noteWebBundle:       "remove it, and write what it holds into the page itself: " + pageNoScript,
	noteNested:          "write what the srcdoc or data: document names inside it too, as a data: URL, or put the content in the page itself: " + pageNoScript,
	noteDeep:            noteDeep,
	noteDataType:        noteDataType,
	noteScriptSyntax:    noteScriptSyntax,
	noteLimit:           noteLimit,
	noteNestedEncoding:  noteNestedEncoding,
	noteXMLUnreadable:   noteXMLUnreadable,
	noteXSLT:            noteXSLT,
	noteCSSAttr:         "write the URL in the stylesheet itself, as a data: URL, or set it from a <script>; a URL read from an attribute by attr() cannot be checked",
	noteImportMapApp:    "a page has no files beside it: remove the import map, and write the module's code in the page, in a <script type=\"module\">",
	noteJavascriptURL:   noteJavascriptURL,
	noteConnect:         noteConnect,
	noteConnectLocal:    noteConnectLocal,
}

// The notes of the places only Options.SingleFile reports.
const (
	noteJavascriptURL = "use a <button> and attach what it does in a <script>: button.addEventListener(\"click\", () => { … })"
	noteConnect       = "a page has no network at run time: write the data it needs into the page (a const in the <script>, or a <script type=\"application/json\"> it parses), or ask the host for it (the SDK's callServerTool, the bridge's tools/call); only an origin the host grants (allowedDomains) can be fetched"
	noteConnectLocal  = "a page has nothing beside it: write the data into the page (a const in the <script>, or a <script type=\"application/json\" id=\"data\"> read with JSON.parse(document.getElementById(\"data\").textContent))"
)

const handlerNote = "give the "

// noteHandler is the note of the event-handler attribute on<event> of a <tag>.
func noteHandler(tag, event string) string {
	return fmt.Sprintf(handlerNote+"<%s> an id and attach the handler in a <script> at the end of <body>: document.getElementById(\"…\").addEventListener(%q, (event) => { … })", tag, event)
}

// pageNote returns the Options.SingleFile note of hit h, whose note for a build is build.
func (c *checker) pageNote(h hit, build string) string {
	if strings.HasPrefix(build, handlerNote) {
		return build // worded for the page already
	}
	switch {
	case strings.HasPrefix(build, noteImportMapApp):
		return pageNotes[noteImportMapApp]
	case build == noteLink:
		allowed := "it allows none"
		if len(c.opts.LinkDomains) > 0 {
			allowed = "it allows " + strings.Join(c.opts.LinkDomains, ", ")
		}
		return fmt.Sprintf("a page opens a link only through its host (%s), and only to the hosts it allows (%s): link to one of those, or show the URL as text", openThrough, allowed)
	case build == "", build == noteInline, build == noteRemote, build == noteImport, build == noteImportMapRemote:
		return c.resourceNote(h)
	}
	if n, ok := pageNotes[build]; ok && n != "" {
		return n
	}
	if strings.HasPrefix(build, "inline it as the page's own element") {
		return build // policyHit's: worded for the page already
	}
	return c.resourceNote(h)
}

// resource is what a URL names, as its place and name tell.
type resource int

const (
	resOther resource = iota
	resScript
	resStyle
	resImage
	resFont
	resMedia
	resFrame
)

// resourceOf says what the URL of h names.
func resourceOf(h hit) resource {
	p, ext := h.place, urlExt(h.url)
	switch {
	case strings.HasPrefix(p, "<script"), strings.HasPrefix(p, "import"), strings.HasPrefix(p, "<link") && strings.Contains(h.rel, "modulepreload"):
		return resScript
	case strings.HasPrefix(p, "<link") && strings.Contains(h.rel, "stylesheet"), strings.HasPrefix(p, "CSS @import"):
		return resStyle
	case strings.HasPrefix(p, "<link") && strings.Contains(h.rel, "icon"):
		return resImage
	case strings.HasPrefix(p, "<iframe"), strings.HasPrefix(p, "<frame "), strings.HasPrefix(p, "<object"), strings.HasPrefix(p, "<embed"):
		return resFrame
	case strings.HasPrefix(p, "<video src"), strings.HasPrefix(p, "<audio"), strings.HasPrefix(p, "<track"), strings.HasPrefix(p, "<source src"):
		return resMedia
	}
	switch t := MediaType(ext); {
	case t == "text/javascript":
		return resScript
	case t == "text/css":
		return resStyle
	case strings.HasPrefix(t, "font/"), isFontHost(h.url):
		return resFont
	case strings.HasPrefix(t, "image/"):
		return resImage
	case strings.HasPrefix(t, "audio/"), strings.HasPrefix(t, "video/"):
		return resMedia
	}
	if strings.HasPrefix(p, "CSS") || strings.HasPrefix(p, "<img") || strings.HasPrefix(p, "<source") ||
		strings.HasPrefix(p, "<input") || strings.HasSuffix(p, " poster>") || strings.HasPrefix(p, "<image") {
		return resImage
	}
	return resOther
}

// resourceNote words the note of a URL that loads, by what it names.
func (c *checker) resourceNote(h hit) string {
	u := h.url
	switch resourceOf(h) {
	case resScript:
		if o, _ := connectOrigin(u); o == "https://cdn.tailwindcss.com" {
			return "Tailwind's Play CDN builds the page's CSS in the browser, from the network: remove this <script> and write the CSS the page's classes need as rules in a <style>; " + pageNoScript
		}
		lib := ""
		if pkg, version, _, ok := cdnPackage(u); ok {
			if version != "" {
				pkg += "@" + version
			}
			lib = fmt.Sprintf("; it is the library %s from a CDN: write the page with the DOM's own APIs instead, or paste that file's text into the element", pkg)
		}
		if strings.HasPrefix(h.place, "import") {
			return "remove the import, and write the code it gave in this script (a page has no modules beside it: code shared by two scripts goes on globalThis)" + lib + "; " + pageNoScript
		}
		return "write the script's code in the page: a <script> element with no src (type=\"module\" for a module), in place of this one" + lib + "; " + pageNoScript
	case resStyle:
		if n, ok := googleFontsPageNote(u); ok {
			return n
		}
		where := "a <style> element in place of this one"
		if strings.HasPrefix(h.place, "CSS @import") {
			where = "this stylesheet, in place of the @import"
		}
		return "write the stylesheet's rules in " + where + "; " + pageNoScript
	case resFont:
		return fmt.Sprintf("write the font into the page as a data: URL in @font-face's src, url(data:%s;base64,…) (%s), or remove the @font-face and use a system font: font-family: system-ui, sans-serif", typeOr(u, "font/woff2"), c.sizeNote(u, "font/woff2"))
	case resImage:
		return fmt.Sprintf("write the image into the page as a data: URL in place of %q: data:%s;base64,… (%s); an icon or a drawing can be an inline <svg> instead", u, typeOr(u, "image/png"), c.sizeNote(u, "image/png"))
	case resMedia:
		return fmt.Sprintf("write it into the page as a data: URL (data:%s;base64,…, %s), or leave it out: %s", typeOr(u, "video/mp4"), c.sizeNote(u, "video/mp4"), pageNoScript)
	case resFrame:
		return "a page cannot frame another page: show the content in the page itself, or write the frame's markup in srcdoc"
	}
	return "write what it names into the page, as a data: URL or as text in the element itself: " + pageNoScript
}

// sizeNote says what a data: URL of the file u adds to the page: its size when the caller
// knows the file (Options.FileSize), else the rule.
func (c *checker) sizeNote(u, fallback string) string {
	if c.opts.FileSize != nil {
		if n, ok := c.opts.FileSize(u); ok && n >= 0 {
			return fmt.Sprintf("the %d-byte file adds %d bytes to the page", n, DataURLSize(typeOr(u, fallback), n))
		}
	}
	return "base64 adds a third to the file's bytes"
}

// DataURLSize is the length of a base64 data: URL of type typ holding n bytes.
func DataURLSize(typ string, n int64) int64 {
	return int64(len("data:"+typ+";base64,")) + 4*((n+2)/3)
}

// googleFontsPageNote words the note of a Google Fonts stylesheet for a page.
func googleFontsPageNote(u string) (string, bool) {
	if !isFontHost(u) {
		return "", false
	}
	return "Google Fonts' stylesheet loads its font files from the network: remove this <link> (and its preconnect links) and use a system font, font-family: system-ui, -apple-system, \"Segoe UI\", sans-serif; or write an @font-face in a <style> whose src is the font file as a data: URL (url(data:font/woff2;base64,…), a third more than the file's bytes)", true
}

// isFontHost reports whether u is on Google Fonts' hosts.
func isFontHost(u string) bool {
	o, ok := connectOrigin(u)
	return ok && (o == "https://fonts.googleapis.com" || o == "https://fonts.gstatic.com" || o == "http://fonts.googleapis.com")
}

// urlExt is the extension of a URL's path, lower case, with its dot.
func urlExt(u string) string {
	c := cleanURL(u)
	if i := strings.IndexAny(c, "?#"); i >= 0 {
		c = c[:i]
	}
	return strings.ToLower(path.Ext(c))
}

// typeOr is the media type of the file u names, or fallback when its name does not say.
func typeOr(u, fallback string) string {
	if t := MediaType(urlExt(u)); t != "" {
		return t
	}
	return fallback
}

// MediaType returns the media type a file's extension (".png", with its dot, any case) names,
// as a data: URL carries it, or "" for one it does not know. The build and the check share it.
func MediaType(ext string) string {
	return mediaTypes[strings.ToLower(ext)]
}

var mediaTypes = map[string]string{".svg": "image/svg+xml", ".ico": "image/x-icon", ".png": "image/png",
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".avif": "image/avif", ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf",
	".otf": "font/otf", ".json": "application/json", ".webmanifest": "application/manifest+json",
	".mp3": "audio/mpeg", ".mp4": "video/mp4", ".webm": "video/webm", ".vtt": "text/vtt",
	".txt": "text/plain", ".css": "text/css", ".js": "text/javascript", ".mjs": "text/javascript"}
