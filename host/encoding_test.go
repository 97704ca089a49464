package host

import (
	"net/http"
	"strings"
	"testing"
)

// TestLinkValue: nothing in a path ends the Link header's target or adds a link.
func TestLinkValue(t *testing.T) {
	for path, want := range map[string]string{
		"/hello/ab.html": `</hello/ab.html>; rel="canonical"`,
		"/a>, <https://evil.example>; rel=preconnect/x.html": `</a%3E%2C%20%3Chttps://evil.example%3E%3B%20rel=preconnect/x.html>; rel="canonical"`,
		"/a\r\nSet-Cookie: s=1/x.html":                       `</a%0D%0ASet-Cookie:%20s=1/x.html>; rel="canonical"`,
	} {
		got := linkValue(path, "canonical")
		if got != want {
			t.Errorf("linkValue(%q) = %s, want %s", path, got, want)
		}
		if strings.Count(got, ">") != 1 || strings.Count(got, ";") != 1 || strings.ContainsAny(got, "\r\n") {
			t.Errorf("linkValue(%q) = %s: more than one link", path, got)
		}
		if err := validHeader(http.Header{"Link": {got}}); err != nil {
			t.Error(err)
		}
	}
	if err := validHeader(http.Header{"Link": {"a\r\nb"}}); err == nil {
		t.Error("validHeader passed CR LF")
	}
}

// TestChoose reads Accept-Encoding as RFC 9110 §12.5.3 does.
func TestChoose(t *testing.T) {
	vs := []variant{{coding: "", body: make([]byte, 100)}, {coding: "br", body: make([]byte, 20)}, {coding: "gzip", body: make([]byte, 30)}}
	for header, want := range map[string]string{
		"":                                   "",
		"identity":                           "",
		"gzip":                               "gzip",
		"gzip;q=1.0, identity; q=0.5, *;q=0": "gzip",
		"br, gzip":                           "br",
		"gzip, br;q=0.9":                     "gzip",
		"gzip;q=0":                           "",
		"*":                                  "br",
		"*;q=0":                              "", // nothing acceptable: identity anyway
		"identity;q=0, gzip;q=0.1":           "gzip",
		"compress, deflate":                  "",
		"br;q=2":                             "", // not a weight
		" BR ; Q=0.8 , gzip;q=0.7 ":          "br",
	} {
		if got := choose(vs, header).coding; got != want {
			t.Errorf("Accept-Encoding %q: %q, want %q", header, got, want)
		}
	}
}
