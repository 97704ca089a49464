package markup

// atom numbers the tag names the tree builder treats specially, so that it compares integers
// and looks properties up in arrays; every other name is atom 0.
type atom uint8

const (
	aNone atom = iota
	aA
	aAddress
	aAnnotationXML
	aApplet
	aArea
	aArticle
	aAside
	aB
	aBase
	aBasefont
	aBgsound
	aBig
	aBlockquote
	aBody
	aBr
	aButton
	aCaption
	aCenter
	aCode
	aCol
	aColgroup
	aDatalist
	aDd
	aDesc
	aDetails
	aDialog
	aDir
	aDiv
	aDl
	aDt
	aEm
	aEmbed
	aFieldset
	aFigcaption
	aFigure
	aFont
	aFooter
	aForeignObject
	aForm
	aFrame
	aFrameset
	aH1
	aH2
	aH3
	aH4
	aH5
	aH6
	aHead
	aHeader
	aHgroup
	aHr
	aHTML
	aI
	aIframe
	aImage
	aImg
	aInput
	aKeygen
	aLi
	aLink
	aListing
	aMain
	aMalignmark
	aMarquee
	aMath
	aMenu
	aMeta
	aMglyph
	aMi
	aMn
	aMo
	aMs
	aMtext
	aNav
	aNobr
	aNoembed
	aNoframes
	aNoscript
	aObject
	aOl
	aOptgroup
	aOption
	aP
	aParam
	aPlaintext
	aPre
	aRb
	aRp
	aRt
	aRtc
	aRuby
	aS
	aScript
	aSearch
	aSection
	aSelect
	aSelectedcontent
	aSmall
	aSource
	aSpan
	aStrike
	aStrong
	aStyle
	aSub
	aSummary
	aSup
	aSvg
	aTable
	aTbody
	aTd
	aTemplate
	aTextarea
	aTfoot
	aTh
	aThead
	aTitle
	aTr
	aTrack
	aTt
	aU
	aUl
	aVar
	aWbr
	aXmp
	numAtoms
)

var atomNames = [numAtoms]string{
	"", "a", "address", "annotation-xml", "applet", "area", "article", "aside", "b", "base",
	"basefont", "bgsound", "big", "blockquote", "body", "br", "button", "caption", "center",
	"code", "col", "colgroup", "datalist", "dd", "desc", "details", "dialog", "dir", "div", "dl", "dt",
	"em", "embed", "fieldset", "figcaption", "figure", "font", "footer", "foreignobject",
	"form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header",
	"hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "keygen", "li", "link",
	"listing", "main", "malignmark", "marquee", "math", "menu", "meta", "mglyph", "mi", "mn",
	"mo", "ms", "mtext", "nav", "nobr", "noembed", "noframes", "noscript", "object", "ol",
	"optgroup", "option", "p", "param", "plaintext", "pre", "rb", "rp", "rt", "rtc", "ruby",
	"s", "script", "search", "section", "select", "selectedcontent", "small", "source", "span",
	"strike", "strong", "style", "sub", "summary", "sup", "svg", "table", "tbody", "td",
	"template", "textarea", "tfoot", "th", "thead", "title", "tr", "track", "tt", "u", "ul",
	"var", "wbr", "xmp",
}

var atomByName = func() map[string]atom {
	m := make(map[string]atom, numAtoms)
	for i := atom(1); i < numAtoms; i++ {
		m[atomNames[i]] = i
	}
	return m
}()

// lookupAtom returns the atom of a lower-case tag name, or aNone.
func lookupAtom(name string) atom {
	if len(name) == 0 || len(name) > len("selectedcontent") {
		return aNone
	}
	return atomByName[name]
}

// Properties of HTML elements by atom (HTML Standard §13.2.4.2 "special", §13.2.4.3
// "formatting").
const (
	pSpecial uint8 = 1 << iota
	pFormatting
	pImpliedEnd      // generate implied end tags
	pImpliedEndThoro // generate all implied end tags thoroughly
	pVoid            // void elements: no end tag, never on the stack for long
	pBreakout        // start tags that break out of foreign content
)

var atomProps = func() (t [numAtoms]uint8) {
	set := func(p uint8, as ...atom) {
		for _, a := range as {
			t[a] |= p
		}
	}
	set(pSpecial, aAddress, aApplet, aArea, aArticle, aAside, aBase, aBasefont, aBgsound,
		aBlockquote, aBody, aBr, aButton, aCaption, aCenter, aCol, aColgroup, aDd, aDetails,
		aDir, aDiv, aDl, aDt, aEmbed, aFieldset, aFigcaption, aFigure, aFooter, aForm, aFrame,
		aFrameset, aH1, aH2, aH3, aH4, aH5, aH6, aHead, aHeader, aHgroup, aHr, aHTML, aIframe,
		aImg, aInput, aKeygen, aLi, aLink, aListing, aMain, aMarquee, aMenu, aMeta, aNav,
		aNoembed, aNoframes, aNoscript, aObject, aOl, aP, aParam, aPlaintext, aPre, aScript,
		aSearch, aSection, aSelect, aSource, aStyle, aSummary, aTable, aTbody, aTd, aTemplate,
		aTextarea, aTfoot, aTh, aThead, aTitle, aTr, aTrack, aUl, aWbr, aXmp)
	set(pFormatting, aA, aB, aBig, aCode, aEm, aFont, aI, aNobr, aS, aSmall, aStrike, aStrong,
		aTt, aU)
	set(pImpliedEnd|pImpliedEndThoro, aDd, aDt, aLi, aOptgroup, aOption, aP, aRb, aRp, aRt, aRtc)
	set(pImpliedEndThoro, aCaption, aColgroup, aTbody, aTd, aTfoot, aTh, aThead, aTr)
	set(pVoid, aArea, aBase, aBasefont, aBgsound, aBr, aCol, aEmbed, aFrame, aHr, aImg, aInput,
		aKeygen, aLink, aMeta, aParam, aSource, aTrack, aWbr)
	set(pBreakout, aB, aBig, aBlockquote, aBody, aBr, aCenter, aCode, aDd, aDiv, aDl, aDt, aEm,
		aEmbed, aH1, aH2, aH3, aH4, aH5, aH6, aHead, aHr, aI, aImg, aLi, aListing, aMenu, aMeta,
		aNobr, aOl, aP, aPre, aRuby, aS, aSmall, aSpan, aStrong, aStrike, aSub, aSup, aTable,
		aTt, aU, aUl, aVar)
	return t
}()

// The classes of elements the stack of open elements indexes: for each, every entry knows
// the nearest member at or below it, so that "is X in scope" and the other walks down the
// stack cost O(1) however deep the stack is (see stack.go).
const (
	cScope         = iota // boundaries of "has an element in scope"
	cListScope            // ... in list item scope
	cButtonScope          // ... in button scope
	cTableScope           // ... in table scope
	cSpecial              // the special category
	cLiStop               // special except address, div, p: where <li>, <dd>, <dt> stop looking
	cHTML                 // elements in the HTML namespace
	cReset                // elements that decide the insertion mode when it is reset
	cTableTemplate        // table and template: where foster parenting looks
	numClasses
)

var htmlClasses = func() (t [numAtoms]uint16) {
	set := func(c int, as ...atom) {
		for _, a := range as {
			t[a] |= 1 << c
		}
	}
	for _, c := range []int{cScope, cListScope, cButtonScope} {
		set(c, aApplet, aCaption, aHTML, aTable, aTd, aTh, aMarquee, aObject, aTemplate, aSelect)
	}
	set(cListScope, aOl, aUl)
	set(cButtonScope, aButton)
	set(cTableScope, aHTML, aTable, aTemplate)
	for a := atom(1); a < numAtoms; a++ {
		if atomProps[a]&pSpecial != 0 {
			set(cSpecial, a)
			if a != aAddress && a != aDiv && a != aP {
				set(cLiStop, a)
			}
		}
		set(cHTML, a)
	}
	set(cReset, aTd, aTh, aTr, aTbody, aThead, aTfoot, aCaption, aColgroup, aTable, aTemplate,
		aHead, aBody, aFrameset, aHTML)
	set(cTableTemplate, aTable, aTemplate)
	return t
}()

// classesOf returns the classes an element belongs to.
func classesOf(n *Node) uint16 {
	switch n.Namespace {
	case HTML:
		if n.atom == aNone {
			return 1 << cHTML
		}
		return htmlClasses[n.atom]
	case MathML:
		switch n.atom {
		case aMi, aMo, aMn, aMs, aMtext, aAnnotationXML:
			return 1<<cScope | 1<<cListScope | 1<<cButtonScope | 1<<cSpecial | 1<<cLiStop
		}
	case SVG:
		switch n.atom {
		case aForeignObject, aDesc, aTitle:
			return 1<<cScope | 1<<cListScope | 1<<cButtonScope | 1<<cSpecial | 1<<cLiStop
		}
	}
	return 0
}

// isHTML reports whether n is an HTML element with atom a.
func isHTML(n *Node, a atom) bool {
	return n != nil && n.Type == ElementNode && n.Namespace == HTML && n.atom == a
}

// svgTagNames maps the lower-case names of SVG elements to their case in the tree (HTML
// Standard §13.2.6.5, the table in "any other start tag").
var svgTagNames = caseTable("altGlyph", "altGlyphDef", "altGlyphItem", "animateColor",
	"animateMotion", "animateTransform", "clipPath", "feBlend", "feColorMatrix",
	"feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting",
	"feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB",
	"feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode",
	"feMorphology", "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile",
	"feTurbulence", "foreignObject", "glyphRef", "linearGradient", "radialGradient",
	"textPath")

// svgAttrNames maps the lower-case names of SVG attributes to their case in the tree
// (§13.2.6.1, "adjust SVG attributes").
var svgAttrNames = caseTable("attributeName", "attributeType", "baseFrequency",
	"baseProfile", "calcMode", "clipPathUnits", "diffuseConstant", "edgeMode", "filterUnits",
	"glyphRef", "gradientTransform", "gradientUnits", "kernelMatrix", "kernelUnitLength",
	"keyPoints", "keySplines", "keyTimes", "lengthAdjust", "limitingConeAngle",
	"markerHeight", "markerUnits", "markerWidth", "maskContentUnits", "maskUnits",
	"numOctaves", "pathLength", "patternContentUnits", "patternTransform", "patternUnits",
	"pointsAtX", "pointsAtY", "pointsAtZ", "preserveAlpha", "preserveAspectRatio",
	"primitiveUnits", "refX", "refY", "repeatCount", "repeatDur", "requiredExtensions",
	"requiredFeatures", "specularConstant", "specularExponent", "spreadMethod", "startOffset",
	"stdDeviation", "stitchTiles", "surfaceScale", "systemLanguage", "tableValues", "targetX",
	"targetY", "textLength", "viewBox", "viewTarget", "xChannelSelector", "yChannelSelector",
	"zoomAndPan")

func caseTable(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[ASCIILower(n)] = n
	}
	return m
}

// ASCIILower returns s with its ASCII upper-case letters made lower case (Infra's "ASCII
// lowercase": strings.ToLower would make a Kelvin sign's K a k), s itself when it has none.
func ASCIILower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// foreignAttrs are the attributes that get a namespace on SVG and MathML elements (§13.2.6.1,
// "adjust foreign attributes"): name as written → namespace and local name.
var foreignAttrs = map[string]struct {
	ns    AttrNamespace
	local string
}{
	"xlink:actuate": {XLink, "actuate"}, "xlink:arcrole": {XLink, "arcrole"},
	"xlink:href": {XLink, "href"}, "xlink:role": {XLink, "role"}, "xlink:show": {XLink, "show"},
	"xlink:title": {XLink, "title"}, "xlink:type": {XLink, "type"},
	"xml:lang": {XML, "lang"}, "xml:space": {XML, "space"},
	"xmlns": {XMLNS, "xmlns"}, "xmlns:xlink": {XMLNS, "xlink"},
}
