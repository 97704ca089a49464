package pipeline

import (
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

// parsesAsWritten reports whether decl ("property:value", as in a style rule, !important or
// not) is valid at parse time by the grammar of its property, for the properties an image
// is written in: background-image, mask-image (and -webkit-mask-image), list-style-image,
// border-image-source, content, cursor and the background, mask and list-style shorthands
// (CSS Backgrounds 3, CSS Masking 1, CSS Lists 3, CSS Generated Content 3, CSS UI 4).
//
// dedupeAssets needs it: an image used twice becomes var(), and a declaration holding var()
// is valid at parse time whatever it says; one the browser would have dropped when parsed
// (so that the declaration before it applies) becomes invalid at computed-value time, which
// makes the property unset (CSS Variables 1, "invalid at computed-value time"). Only in a
// declaration valid as written does var() of the same url give the same value.
//
// It may refuse what a browser accepts (a function other than url(): gradients, image-set(),
// rgb(), calc(); system colors; units beyond the common ones; the border-image shorthand),
// never accept what Chromium drops: TestParsesAsWrittenAsChromium checks each piece against
// CSS.supports. A refused declaration keeps its url() inline.
func parsesAsWritten(decl string) bool {
	l := css.NewLexer(parse.NewInputString(decl))
	var toks []cssTok
	for {
		tt, data := l.Next()
		if tt == css.ErrorToken {
			break
		}
		switch tt {
		case css.WhitespaceToken, css.CommentToken:
			continue
		case css.FunctionToken, css.LeftParenthesisToken, css.LeftBracketToken, css.LeftBraceToken,
			css.RightParenthesisToken, css.RightBracketToken, css.RightBraceToken,
			css.BadURLToken, css.BadStringToken, css.SemicolonToken:
			return false // functions and blocks: not implemented
		}
		if tt != css.URLToken && strings.ContainsRune(string(data), '\\') {
			// An escape: \69 nherit is the keyword inherit, which a custom-ident excludes;
			// keywords are compared as written here.
			return false
		}
		toks = append(toks, cssTok{tt, string(data)})
	}
	if len(toks) < 3 || toks[0].tt != css.IdentToken || toks[1].tt != css.ColonToken {
		return false
	}
	prop, val := toks[0].ident(), toks[2:]
	if n := len(val); n >= 2 && val[n-2].isDelim("!") && val[n-1].isIdent("important") {
		val = val[:n-2]
	}
	if len(val) == 0 {
		return false
	}
	switch prop {
	case "background-image", "mask-image", "-webkit-mask-image":
		for _, layer := range splitCommas(val) {
			if len(layer) != 1 || !layer[0].isImageOrNone() {
				return false
			}
		}
		return true
	case "list-style-image", "border-image-source":
		return len(val) == 1 && val[0].isImageOrNone()
	case "background", "mask":
		layers := splitCommas(val)
		for i, layer := range layers {
			if !bgLayer(layer, i == len(layers)-1, prop == "mask") {
				return false
			}
		}
		return true
	case "list-style":
		return listStyle(val)
	case "content":
		return contentValue(val)
	case "cursor":
		return cursorValue(val)
	}
	return false
}

func (t cssTok) isDelim(s string) bool { return t.tt == css.DelimToken && t.text == s }

func (t cssTok) isIdent(s string) bool { return t.ident() == s }

// ident is an identifier in ASCII lower case, as CSS compares keywords (ASCII
// case-insensitively: the Kelvin sign is no k), or "" for another token or one with a
// character beyond ASCII, which is no keyword.
func (t cssTok) ident() string {
	if t.tt != css.IdentToken {
		return ""
	}
	for i := 0; i < len(t.text); i++ {
		if t.text[i] >= 0x80 {
			return ""
		}
	}
	return strings.ToLower(t.text)
}

func (t cssTok) isImageOrNone() bool { return t.tt == css.URLToken || t.isIdent("none") }

// isLengthPercentage: a <length> (a dimension in an absolute or font- or viewport-relative
// unit, or the number 0) or a <percentage>; nonNeg refuses a negative one.
func (t cssTok) isLengthPercentage(nonNeg bool) bool {
	num := t.text
	switch t.tt {
	case css.PercentageToken:
		num = num[:len(num)-1]
	case css.NumberToken:
		f, err := strconv.ParseFloat(num, 64)
		return err == nil && f == 0
	case css.DimensionToken:
		i := len(num)
		for i > 0 && (num[i-1] >= 'a' && num[i-1] <= 'z' || num[i-1] >= 'A' && num[i-1] <= 'Z') {
			i--
		}
		if i == 0 {
			return false
		}
		switch strings.ToLower(num[i:]) {
		case "px", "em", "rem", "ex", "ch", "vw", "vh", "vmin", "vmax", "cm", "mm", "q", "in", "pt", "pc":
		default:
			return false
		}
		num = num[:i]
	default:
		return false
	}
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && (!nonNeg || f >= 0)
}

// isColor: a hex color, a named color, transparent or currentcolor (CSS Color 4).
func (t cssTok) isColor() bool {
	if t.tt == css.HashToken {
		h := t.text[1:]
		for _, c := range h {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
		return len(h) == 3 || len(h) == 4 || len(h) == 6 || len(h) == 8
	}
	id := t.ident()
	return id == "transparent" || id == "currentcolor" || namedColors[id]
}

func splitCommas(val []cssTok) [][]cssTok {
	var out [][]cssTok
	start := 0
	for i, t := range val {
		if t.tt == css.CommaToken {
			out = append(out, val[start:i])
			start = i + 1
		}
	}
	return append(out, val[start:])
}

// bgLayer: <bg-layer> = <bg-image> || <bg-position> [ / <bg-size> ]? || <repeat-style> ||
// <attachment> || <visual-box> || <visual-box>, and in the final layer || <'background-color'>.
// The position is read as Chromium reads it, its longest run of position values (at most 4),
// and a bg-size after it its longest run (at most 2).
//
// With mask, a <mask-layer> (CSS Masking 1) = <mask-reference> || <position> [ / <bg-size> ]?
// || <repeat-style> || <geometry-box> || [ <geometry-box> | no-clip ] ||
// <compositing-operator> || <masking-mode>, its <geometry-box> without margin-box, which
// Chromium does not take.
func bgLayer(toks []cssTok, final, mask bool) bool {
	if len(toks) == 0 {
		return false
	}
	var image, pos, repeat, attach, color, composite, mode, noClip bool
	boxes := 0
	for i := 0; i < len(toks); {
		t := toks[i]
		id := t.ident()
		switch {
		case !image && t.isImageOrNone():
			image = true
			i++
		case !pos && isPositionValue(t):
			n := 0
			for i+n < len(toks) && n < 4 && isPositionValue(toks[i+n]) {
				n++
			}
			if !bgPosition(toks[i : i+n]) {
				return false
			}
			i += n
			pos = true
			if i < len(toks) && toks[i].isDelim("/") {
				i++
				if i < len(toks) && (toks[i].isIdent("cover") || toks[i].isIdent("contain")) {
					i++
					continue
				}
				n := 0
				for i+n < len(toks) && n < 2 && (toks[i+n].isIdent("auto") || toks[i+n].isLengthPercentage(true)) {
					n++
				}
				if n == 0 {
					return false
				}
				i += n
			}
		case !repeat && (id == "repeat-x" || id == "repeat-y"):
			repeat = true
			i++
		case !repeat && isRepeat(id):
			repeat = true
			i++
			if i < len(toks) && isRepeat(toks[i].ident()) {
				i++
			}
		case !mask && !attach && (id == "scroll" || id == "fixed" || id == "local"):
			attach = true
			i++
		case boxes < 2 && !noClip && (id == "border-box" || id == "padding-box" || id == "content-box" ||
			mask && (id == "fill-box" || id == "stroke-box" || id == "view-box")):
			boxes++
			i++
		case mask && boxes < 2 && !noClip && id == "no-clip":
			noClip = true
			boxes = 2
			i++
		case mask && !composite && (id == "add" || id == "subtract" || id == "intersect" || id == "exclude"):
			composite = true
			i++
		case mask && !mode && (id == "alpha" || id == "luminance" || id == "match-source"):
			mode = true
			i++
		case !mask && final && !color && t.isColor():
			color = true
			i++
		default:
			return false
		}
	}
	return true
}

func isRepeat(id string) bool {
	return id == "repeat" || id == "space" || id == "round" || id == "no-repeat"
}

func isPositionValue(t cssTok) bool {
	switch t.ident() {
	case "left", "right", "top", "bottom", "center":
		return true
	}
	return t.isLengthPercentage(false)
}

// bgPosition: <position> (CSS Values 4, as <bg-position> of CSS Backgrounds 3):
//
//	[ left | center | right | top | bottom | <length-percentage> ]
//	| [ left | center | right | <length-percentage> ] [ top | center | bottom | <length-percentage> ]
//	| [ center | [ left | right ] <length-percentage>? ] && [ center | [ top | bottom ] <length-percentage>? ]
func bgPosition(v []cssTok) bool {
	switch len(v) {
	case 1:
		return true // isPositionValue
	case 2:
		x, y := v[0].ident(), v[1].ident()
		if (x == "left" || x == "center" || x == "right" || x == "" && v[0].isLengthPercentage(false)) &&
			(y == "top" || y == "center" || y == "bottom" || y == "" && v[1].isLengthPercentage(false)) {
			return true
		}
	}
	// The keyword pairs, each keyword with its offset or not.
	group := func(v []cssTok) (axis string, n int) {
		if len(v) == 0 {
			return "", 0
		}
		switch kw := v[0].ident(); kw {
		case "center":
			return "c", 1
		case "left", "right", "top", "bottom":
			axis = "x"
			if kw == "top" || kw == "bottom" {
				axis = "y"
			}
			if len(v) > 1 && v[1].ident() == "" && v[1].isLengthPercentage(false) {
				return axis, 2
			}
			return axis, 1
		}
		return "", 0
	}
	a, n := group(v)
	if n == 0 {
		return false
	}
	b, m := group(v[n:])
	if m == 0 || n+m != len(v) {
		return false
	}
	return a != b || a == "c"
}

// listStyle: <'list-style-position'> || <'list-style-image'> || <'list-style-type'>, the type
// a <counter-style-name> (any identifier but the CSS-wide keywords, default and none), a
// <string> or none; a none sets whichever of image and type the others do not (one none only).
func listStyle(toks []cssTok) bool {
	var pos, image, typ bool
	nones := 0
	for _, t := range toks {
		id := t.ident()
		switch {
		case id == "none":
			nones++
		case !pos && (id == "inside" || id == "outside"):
			pos = true
		case !image && t.tt == css.URLToken:
			image = true
		case !typ && t.tt == css.StringToken:
			typ = true
		case !typ && id != "" && !cssWideOrDefault(id) && id != "inside" && id != "outside":
			typ = true
		default:
			return false
		}
	}
	return nones == 0 || nones == 1 && !(image && typ)
}

func cssWideOrDefault(id string) bool {
	switch id {
	case "inherit", "initial", "unset", "revert", "revert-layer", "default":
		return true
	}
	return false
}

// contentValue: [ <string> | <image> | <quote> ]+ [ / <string>+ ]? (CSS Generated Content 3, the
// part of it without functions).
func contentValue(toks []cssTok) bool {
	i := 0
	for ; i < len(toks); i++ {
		t := toks[i]
		switch t.ident() {
		case "open-quote", "close-quote", "no-open-quote", "no-close-quote":
			continue
		}
		if t.tt != css.StringToken && t.tt != css.URLToken {
			break
		}
	}
	if i == 0 {
		return false
	}
	if i == len(toks) {
		return true
	}
	if !toks[i].isDelim("/") || i+1 == len(toks) {
		return false
	}
	for _, t := range toks[i+1:] {
		if t.tt != css.StringToken {
			return false
		}
	}
	return true
}

// cursorValue: [ <url> [ <x> <y> ]? , ]* <cursor keyword> (CSS UI 4).
func cursorValue(toks []cssTok) bool {
	layers := splitCommas(toks)
	for _, l := range layers[:len(layers)-1] {
		if len(l) == 0 || l[0].tt != css.URLToken {
			return false
		}
		if len(l) == 3 && l[1].tt == css.NumberToken && l[2].tt == css.NumberToken {
			continue
		}
		if len(l) != 1 {
			return false
		}
	}
	last := layers[len(layers)-1]
	return len(last) == 1 && cursorKeywords[last[0].ident()]
}

var cursorKeywords = setOf("auto default none context-menu help pointer progress wait cell crosshair text vertical-text " +
	"alias copy move no-drop not-allowed grab grabbing e-resize n-resize ne-resize nw-resize s-resize se-resize " +
	"sw-resize w-resize ew-resize ns-resize nesw-resize nwse-resize col-resize row-resize all-scroll zoom-in zoom-out")

// namedColors: CSS Color 4's <named-color>s.
var namedColors = setOf("aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue " +
	"blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan " +
	"darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen " +
	"darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey " +
	"darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite " +
	"forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink " +
	"indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral " +
	"lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen " +
	"lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta " +
	"maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue " +
	"mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin " +
	"navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen " +
	"paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red " +
	"rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue " +
	"slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white " +
	"whitesmoke yellow yellowgreen")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
