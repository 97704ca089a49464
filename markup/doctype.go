package markup

import "strings"

// quirksOf returns the mode a doctype token puts a document in (HTML Standard §13.2.6.4.1).
func quirksOf(name string, d *Doctype) QuirksMode {
	pub, sys := strings.ToLower(d.PublicID), strings.ToLower(d.SystemID)
	if d.ForceQuirks || name != "html" {
		return Quirks
	}
	if d.HasPublicID {
		switch pub {
		case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html":
			return Quirks
		}
		for _, q := range quirkyPublicIDs {
			if strings.HasPrefix(pub, q) {
				return Quirks
			}
		}
		if !d.HasSystemID && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") ||
			strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//")) {
			return Quirks
		}
	}
	if d.HasSystemID && sys == "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd" {
		return Quirks
	}
	if d.HasPublicID {
		if strings.HasPrefix(pub, "-//w3c//dtd xhtml 1.0 frameset//") ||
			strings.HasPrefix(pub, "-//w3c//dtd xhtml 1.0 transitional//") {
			return LimitedQuirks
		}
		if d.HasSystemID && (strings.HasPrefix(pub, "-//w3c//dtd html 4.01 frameset//") ||
			strings.HasPrefix(pub, "-//w3c//dtd html 4.01 transitional//")) {
			return LimitedQuirks
		}
	}
	return NoQuirks
}

// quirkyPublicIDs are the public identifier prefixes that mean quirks mode, lower case.
var quirkyPublicIDs = []string{
	"+//silmaril//dtd html pro v0r11 19970101//",
	"-//as//dtd html 3.0 aswedit + extensions//",
	"-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
	"-//ietf//dtd html 2.0 level 1//",
	"-//ietf//dtd html 2.0 level 2//",
	"-//ietf//dtd html 2.0 strict level 1//",
	"-//ietf//dtd html 2.0 strict level 2//",
	"-//ietf//dtd html 2.0 strict//",
	"-//ietf//dtd html 2.0//",
	"-//ietf//dtd html 2.1e//",
	"-//ietf//dtd html 3.0//",
	"-//ietf//dtd html 3.2 final//",
	"-//ietf//dtd html 3.2//",
	"-//ietf//dtd html 3//",
	"-//ietf//dtd html level 0//",
	"-//ietf//dtd html level 1//",
	"-//ietf//dtd html level 2//",
	"-//ietf//dtd html level 3//",
	"-//ietf//dtd html strict level 0//",
	"-//ietf//dtd html strict level 1//",
	"-//ietf//dtd html strict level 2//",
	"-//ietf//dtd html strict level 3//",
	"-//ietf//dtd html strict//",
	"-//ietf//dtd html//",
	"-//metrius//dtd metrius presentational//",
	"-//microsoft//dtd internet explorer 2.0 html strict//",
	"-//microsoft//dtd internet explorer 2.0 html//",
	"-//microsoft//dtd internet explorer 2.0 tables//",
	"-//microsoft//dtd internet explorer 3.0 html strict//",
	"-//microsoft//dtd internet explorer 3.0 html//",
	"-//microsoft//dtd internet explorer 3.0 tables//",
	"-//netscape comm. corp.//dtd html//",
	"-//netscape comm. corp.//dtd strict html//",
	"-//o'reilly and associates//dtd html 2.0//",
	"-//o'reilly and associates//dtd html extended 1.0//",
	"-//o'reilly and associates//dtd html extended relaxed 1.0//",
	"-//sq//dtd html 2.0 hotmetal + extensions//",
	"-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
	"-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
	"-//spyglass//dtd html 2.0 extended//",
	"-//sun microsystems corp.//dtd hotjava html//",
	"-//sun microsystems corp.//dtd hotjava strict html//",
	"-//w3c//dtd html 3 1995-03-24//",
	"-//w3c//dtd html 3.2 draft//",
	"-//w3c//dtd html 3.2 final//",
	"-//w3c//dtd html 3.2//",
	"-//w3c//dtd html 3.2s draft//",
	"-//w3c//dtd html 4.0 frameset//",
	"-//w3c//dtd html 4.0 transitional//",
	"-//w3c//dtd html experimental 19960712//",
	"-//w3c//dtd html experimental 970421//",
	"-//w3c//dtd w3 html//",
	"-//w3o//dtd w3 html 3.0//",
	"-//webtechs//dtd mozilla html 2.0//",
	"-//webtechs//dtd mozilla html//",
}

// shadowHost returns the element a template start tag t makes a declarative shadow root of
// (§13.2.6.4.4, "A start tag whose tag name is template"), or nil for an ordinary template.
// The template n has just been inserted; its parent is the adjusted current node.
func shadowHost(p *parser, n *Node, t *token) *Node {
	mode, ok := attrOf(t, "shadowrootmode")
	if !ok || !asciiEqualFold(mode, "open") && !asciiEqualFold(mode, "closed") {
		return nil
	}
	host := n.open.prev
	if host == nil || host == p.st.root || n.Flags&Fostered != 0 {
		return nil
	}
	h := host.n
	if h.Namespace != HTML || h.hasShadow {
		return nil
	}
	switch h.atom {
	case aArticle, aAside, aBlockquote, aBody, aDiv, aFooter, aH1, aH2, aH3, aH4, aH5, aH6,
		aHeader, aMain, aNav, aP, aSection, aSpan:
		return h
	}
	if h.atom == aNone && isCustomElementName(h.Name) {
		return h
	}
	return nil
}

// isCustomElementName reports whether name is a valid custom element name (HTML Standard
// §4.13.2): a lower-case ASCII letter, then a hyphen somewhere, no upper-case ASCII, and not
// one of the reserved names.
func isCustomElementName(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' || !strings.Contains(name, "-") {
		return false
	}
	switch name {
	case "annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri",
		"font-face-format", "font-face-name", "missing-glyph":
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}
