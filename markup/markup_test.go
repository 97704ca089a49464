package markup

import "testing"

// TestFold: IndexFold finds the ASCII lower-case needle in any case, at its byte offset after
// text that changes length when lower-cased (İ); BreaksScript knows the three sequences of the
// script data states in any case, and nothing that only begins them.
func TestFold(t *testing.T) {
	for _, r := range []struct {
		s, sub string
		want   int
	}{{"xx@FONT-face", "@font-face", 2}, {"url(DATA:", "url(data:", 0}, {"url(dat", "url(data:", -1}, {"İurl(Data:x", "url(data:", 2}, {"aurl(", "url(data:", -1}} {
		if got := IndexFold(r.s, r.sub); got != r.want {
			t.Errorf("IndexFold(%q, %q) = %d, want %d", r.s, r.sub, got, r.want)
		}
	}
	for s, want := range map[string]bool{
		"<!--x": true, "<SCRIPT": true, "</sCrIpT>": true, "<!-": false, "<scrip": false, "</style": false, "a<!--": false,
	} {
		if got := BreaksScript(s); got != want {
			t.Errorf("BreaksScript(%q) = %v, want %v", s, got, want)
		}
	}
}
