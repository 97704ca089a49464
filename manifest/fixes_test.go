package manifest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/miniapp/bundle/diag"
)

// fixPatterns read the replacement a note suggests for the span its message underlines.
var fixPatterns = []*regexp.Regexp{
	regexp.MustCompile(`^write [A-Za-z]+ = (.+?)(?: \(|$)`),
	regexp.MustCompile(`^write "[A-Za-z]+": (.+?)(?: \(|$)`),
	regexp.MustCompile(`^write ("[^"]*")(?:$|:| )`),
	regexp.MustCompile(`did you mean ("[^"]*")\?`),
	regexp.MustCompile(`^name the site: ("[^"]*")`),
	regexp.MustCompile(`^write the (?:origin|host) alone: ("[^"]*")`),
}

// applyFix applies the fix m suggests to src, and reports whether it found one.
func applyFix(src string, m diag.Message) (string, bool) {
	var repl string
	for _, re := range fixPatterns {
		if g := re.FindStringSubmatch(m.Note); g != nil {
			repl = g[1]
			break
		}
	}
	if repl == "" || m.Line == 0 {
		return src, false
	}
	lines := strings.SplitAfter(src, "\n")
	off := 0
	for _, l := range lines[:m.Line-1] {
		off += len(l)
	}
	off += m.Column - 1
	// The span is the token the message names: a string to its closing quote, a number to
	// its last digit, a bare key to its end.
	end := off + max(m.Length, 1)
	switch c := src[off]; {
	case c == '"':
		if j := strings.IndexByte(src[off+1:], '"'); j >= 0 {
			end = off + j + 2
		}
	case c >= '0' && c <= '9':
		end = off
		for end < len(src) && strings.IndexByte("0123456789.eE+-", src[end]) >= 0 {
			end++
		}
	default:
		repl = strings.Trim(repl, `"`) // a key, written bare
	}
	span := src[off:end]
	return src[:off] + repl + src[off+len(span):], true
}

// TestSuggestedFixesApply applies, verbatim, every fix the manifest's messages suggest, and
// checks that the manifest is then accepted: a fix that needs a second round is a bug.
func TestSuggestedFixesApply(t *testing.T) {
	base := "id = \"fix\"\nname = \"Fix\"\ndescription = \"D.\"\nentry = \"index.html\"\n"
	jsonBase := `{"id": "fix", "name": "Fix", "description": "D.", "entry": "index.html", `
	rows := []struct{ name, file, src string }{
		{"unknown_key", "miniapp.toml", "id = \"fix\"\nnmae = \"Fix\"\ndescription = \"D.\"\nentry = \"index.html\"\n"},
		{"http_with_path", "miniapp.toml", base + "allowedDomains = [\"http://api.example.com/v1/\"]\n"},
		{"host_not_origin", "miniapp.toml", base + "allowedDomains = [\"api.example.com\"]\n"},
		{"upper_case", "miniapp.toml", base + "allowedDomains = [\"https://API.example.com\"]\n"},
		{"wildcard_tld", "miniapp.toml", base + "allowedDomains = [\"*.com\"]\n"},
		{"wildcard_public_suffix", "miniapp.toml", base + "linkDomains = [\"*.co.uk\"]\n"},
		{"link_url", "miniapp.toml", base + "linkDomains = [\"https://docs.example.com/guide\"]\n"},
		{"host_http", "miniapp.toml", base + "hosts = [\"http://chat.example.com\"]\n"},
		{"maxkb_float", "miniapp.toml", base + "maxKB = 512.5\n"},
		{"display_mode_typo", "miniapp.toml", base + "displayModes = [\"fulscreen\"]\n"},
		{"wasm_string", "miniapp.toml", base + "wasm = \"yes\"\n"},
		{"prefers_border_string", "miniapp.toml", base + "prefersBorder = \"yes\"\n"},
		{"loader_typo", "miniapp.toml", base + "[build]\nloader = { \".js\" = \"jsxx\" }\n"},
		{"barrels_string", "miniapp.toml", base + "[build]\nbarrels = \"off\"\n"},
		{"json_barrels_string", "manifest.json", jsonBase + `"build": {"barrels": "off"}}`},
		{"cjs_interop_string", "miniapp.toml", base + "[build]\ninconsistentCjsInterop = \"yes\"\n"},
		{"json_cjs_interop_string", "manifest.json", jsonBase + `"build": {"inconsistentCjsInterop": "yes"}}`},
		{"json_unknown_key", "manifest.json", `{"id": "fix", "nmae": "Fix", "description": "D.", "entry": "index.html"}`},
		{"json_maxkb_float", "manifest.json", jsonBase + `"maxKB": 512.5}`},
		{"json_http_with_path", "manifest.json", jsonBase + `"allowedDomains": ["http://x.example.com/p"]}`},
		{"json_wasm_string", "manifest.json", jsonBase + `"wasm": "yes"}`},
		{"json_resource_domain", "manifest.json", jsonBase + `"resourceDomains": ["cdn.example.com"]}`},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			src := row.src
			_, l := Parse(row.file, []byte(src))
			if len(l) == 0 {
				t.Fatal("no problem reported")
			}
			for round := 0; round < 3 && len(l) > 0; round++ {
				if round == 1 {
					t.Errorf("a second round was needed:\n%s\n%s", src, diag.FormatLines(l))
				}
				applied := false
				// Apply from the last message back, so that earlier offsets hold.
				for i := len(l) - 1; i >= 0; i-- {
					var ok bool
					if src, ok = applyFix(src, l[i]); ok {
						applied = true
					}
				}
				if !applied {
					t.Fatalf("no fix to apply in:\n%s", diag.FormatLines(l))
				}
				_, l = Parse(row.file, []byte(src))
			}
			if len(l) > 0 {
				t.Errorf("after the fixes:\n%s\n%s", src, diag.FormatLines(l))
			}
		})
	}
}
