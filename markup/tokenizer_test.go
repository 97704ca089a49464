package markup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

type tokenizerCase struct {
	Description   string
	Input         string
	Output        []json.RawMessage
	InitialStates []string
	LastStartTag  string
	DoubleEscaped bool
	Errors        []struct {
		Code      string
		Line, Col int
	}
}

// unescapeU undoes the extra \uHHHH escaping of doubleEscaped cases. It reports false for a
// lone surrogate, which UTF-8 input cannot hold.
func unescapeU(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+5 < len(s)+0 && i+6 <= len(s) && s[i+1] == 'u' {
			v, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
			if err == nil {
				r := rune(v)
				if 0xD800 <= r && r <= 0xDBFF && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					if lo, err := strconv.ParseUint(s[i+8:i+12], 16, 32); err == nil && 0xDC00 <= lo && lo <= 0xDFFF {
						b.WriteRune((r-0xD800)<<10 + rune(lo-0xDC00) + 0x10000)
						i += 11
						continue
					}
				}
				if 0xD800 <= r && r <= 0xDFFF {
					return "", false
				}
				b.WriteRune(r)
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

// unescapeAll applies unescapeU to every string in v.
func unescapeAll(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		return unescapeU(x)
	case []any:
		ok := true
		for i := range x {
			var k bool
			x[i], k = unescapeAll(x[i])
			ok = ok && k
		}
		return x, ok
	case map[string]any:
		ok := true
		out := map[string]any{}
		for key, val := range x {
			k2, k1 := unescapeU(key)
			v2, k3 := unescapeAll(val)
			out[k2] = v2
			ok = ok && k1 && k3
		}
		return out, ok
	}
	return v, true
}

// tokenizeForTest runs the tokenizer alone from state st, as the suite does, and returns the
// tokens in the suite's form and the errors as code:line:col.
func tokenizeForTest(input string, st TokenState, last string) (tokens []any, errs []string) {
	z := newTokenizer(input)
	z.state, z.last = st, last
	z.report = func(code string, at int) {
		line, col := 1, 1
		prev := rune(0)
		for _, r := range input[:min(at, len(input))] {
			switch {
			case r == '\n' && prev == '\r':
			case r == '\n' || r == '\r':
				line, col = line+1, 1
			case r > 0xFFFF:
				col += 2 // the suite counts UTF-16 code units
			default:
				col++
			}
			prev = r
		}
		errs = append(errs, fmt.Sprintf("%s:%d:%d", code, line, col))
	}
	type perr struct {
		at   int
		text string
	}
	var pe []perr
	rep := z.report
	z.report = func(code string, at int) {
		n := len(errs)
		rep(code, at)
		pe = append(pe, perr{at, errs[n]})
	}
	defer func() {
		slices.SortStableFunc(pe, func(a, b perr) int { return a.at - b.at })
		errs = errs[:0]
		for _, e := range pe {
			errs = append(errs, e.text)
		}
	}()
	inputErrors([]byte(input), 0, z.report)
	var t token
	text := ""
	flush := func() {
		if text != "" {
			tokens = append(tokens, []any{"Character", text})
			text = ""
		}
	}
	for {
		z.next(&t)
		switch t.kind {
		case tEOF:
			flush()
			return tokens, errs
		case tText:
			text += t.data
			continue
		}
		flush()
		switch t.kind {
		case tStart:
			attrs := map[string]any{}
			for _, a := range t.attr {
				attrs[a.Name] = a.Value
			}
			tok := []any{"StartTag", t.data, attrs}
			if t.selfClosing {
				tok = append(tok, true)
			}
			tokens = append(tokens, tok)
		case tEnd:
			tokens = append(tokens, []any{"EndTag", t.data})
		case tComment:
			tokens = append(tokens, []any{"Comment", t.data})
		case tDoctype:
			d := t.doctype
			var name, pub, sys any
			if t.data != "" {
				name = t.data
			}
			if d.HasPublicID {
				pub = d.PublicID
			}
			if d.HasSystemID {
				sys = d.SystemID
			}
			tokens = append(tokens, []any{"DOCTYPE", name, pub, sys, !d.ForceQuirks})
		}
	}
}

var tokenizerStates = map[string]TokenState{
	"Data state": DataState, "PLAINTEXT state": PlaintextState, "RCDATA state": RCDATAState,
	"RAWTEXT state": RawTextState, "Script data state": ScriptState, "CDATA section state": CDATAState,
}

// tokenizerFailures are the cases of the suite the tokenizer does not pass, with the reason.
var tokenizerFailures = map[string]string{}

// TestTokenizer runs html5lib-tests' tokenizer suite: the tokens must be the expected ones
// (adjacent characters merged), and so must the parse errors, code and place.
func TestTokenizer(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(html5libDir(t), "tokenizer", "*.test"))
	total, passed, errTotal, errPassed, surrogates := 0, 0, 0, 0, 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suite struct {
			Tests             []tokenizerCase
			XMLViolationTests []tokenizerCase `json:"xmlViolationTests"`
		}
		if err := json.Unmarshal(raw, &suite); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i, c := range suite.Tests {
			states := c.InitialStates
			if len(states) == 0 {
				states = []string{"Data state"}
			}
			for _, sn := range states {
				name := fmt.Sprintf("%s/%d/%s", filepath.Base(f), i, sn)
				total++
				input := c.Input
				var want []any
				for _, o := range c.Output {
					var v any
					json.Unmarshal(o, &v)
					want = append(want, v)
				}
				representable := utf8.ValidString(input)
				if c.DoubleEscaped {
					var ok bool
					input, ok = unescapeU(input)
					representable = representable && ok
					for k := range want {
						want[k], ok = unescapeAll(want[k])
						representable = representable && ok
					}
				}
				reason, known := tokenizerFailures[name]
				if !representable {
					reason, known = "input holds a lone surrogate, which UTF-8 cannot", true
					surrogates++
				}
				got, errs := tokenizeForTest(input, tokenizerStates[sn], c.LastStartTag)
				gotJSON, _ := json.Marshal(got)
				var gotNorm []any
				json.Unmarshal(gotJSON, &gotNorm)
				ok := reflect.DeepEqual(gotNorm, want) || len(gotNorm) == 0 && len(want) == 0
				if ok {
					passed++
					if known {
						t.Errorf("%s passes but is listed as failing (%s)", name, reason)
					}
				} else if !known {
					t.Errorf("%s %s %q:\ngot  %s\nwant %s", name, c.Description, input, gotJSON, mustJSON(want))
				}
				if !ok || !representable {
					continue
				}
				errTotal++
				var wantErrs []string
				for _, e := range c.Errors {
					wantErrs = append(wantErrs, fmt.Sprintf("%s:%d:%d", e.Code, e.Line, e.Col))
				}
				if strings.Join(errs, " ") == strings.Join(wantErrs, " ") {
					errPassed++
				} else {
					t.Errorf("%s %s %q: errors\ngot  %v\nwant %v", name, c.Description, input, errs, wantErrs)
				}
			}
		}
	}
	t.Logf("html5lib tokenizer: %d of %d cases give the expected tokens (%d hold a lone surrogate, "+
		"which UTF-8 input cannot); %d of %d the expected errors", passed, total, surrogates, errPassed, errTotal)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestInputErrors: the eight-bytes-at-a-time scan finds what a byte-at-a-time one does.
func TestInputErrors(t *testing.T) {
	for _, s := range []string{"abcdefgh\x01ijklmnop", "abcdefghijklmno\x7f", "\x0b", "abcdefgh\u0080xyz", "abcdefghijklmnop\uFDD0", "héllo wörld \x1f"} {
		var a, b []int
		inputErrors([]byte(s), 0, func(_ string, at int) { a = append(a, at) })
		for i := 0; i < len(s); i++ {
			c := s[i]
			if c < 0x20 && c != 0 && c != '\t' && c != '\n' && c != '\f' && c != '\r' || c == 0x7f || c == 0xC2 && i+1 < len(s) && s[i+1] <= 0x9f || c == 0xEF && i+2 < len(s) && s[i+1] == 0xB7 && s[i+2] >= 0x90 && s[i+2] <= 0xAF {
				b = append(b, i)
			}
		}
		if len(a) != len(b) {
			t.Errorf("%q: %v vs %v", s, a, b)
		}
	}
}
