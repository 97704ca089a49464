package offline

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/pipeline/browsertest"
)

// TestDifferential generates pages by mutating the table rows (encodings, entity and escape
// forms, quoting, case, places, nesting, data: wrapping, CSS tokens), checks each, loads each
// in Chromium behind the recording proxy, and reports every page the checker passes that makes
// the browser request something: a bypass. Pages the checker refuses that load nothing are
// counted, not failed: refusing is the safe side, and many rows load only on a click.
//
// Every other page is then set at the start, the end or inside one of html5lib-tests' tree
// construction inputs (constructs × load places).
//
// It runs DIFFERENTIAL_PAGES pages (300 by default, as CI does; 20000 or more to hunt), from
// the seed DIFFERENTIAL_SEED (1 by default), so that any run can be repeated.
func TestDifferential(t *testing.T) {
	pages := envInt("DIFFERENTIAL_PAGES", 300)
	seed := envInt("DIFFERENTIAL_SEED", 1)
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	var corpus []string
	for _, r := range refuseRows {
		corpus = append(corpus, r.html)
	}
	for _, r := range passRows {
		corpus = append(corpus, r.html)
	}
	for _, r := range treeRows {
		corpus = append(corpus, r.html)
	}
	// Every other page is set in a construct of html5lib-tests' tree construction suite.
	inContext := inHTML5libContext(html5libInputs(t))
	b := browsertest.StartWith(t, browsertest.Config{Desktop: true})
	const batch = 24
	var bypasses, refusedQuiet, agreed int
	start := time.Now()
	for done := 0; done < pages; done += batch {
		type page struct {
			id    int
			doc   string
			clean bool
			how   string
		}
		var ps []page
		var frames strings.Builder
		for i := 0; i < batch && done+i < pages; i++ {
			id := done + i
			how, doc := mutate(rng, corpus[rng.IntN(len(corpus))], id)
			if id%2 == 1 {
				how, doc = how+"+html5lib", inContext(rng, doc)
			}
			fs, err := Check("d.html", []byte(doc), Options{})
			if err != nil {
				t.Fatalf("page %d (%s): %v", id, how, err)
			}
			ps = append(ps, page{id, doc, len(fs) == 0, how})
			b.Serve(fmt.Sprintf("/d/%d/page.html", id), []byte(doc), "text/html")
			fmt.Fprintf(&frames, `<iframe src="/d/%d/page.html" width=300 height=150></iframe>`, id)
		}
		u := b.Serve(fmt.Sprintf("/batch/%d.html", done), []byte(`<!doctype html><meta charset=utf-8><body>`+frames.String()))
		v := b.Visit(t, u, 900*time.Millisecond)
		reqs := v.Requests
		for _, p := range ps {
			loaded := ""
			host, path := fmt.Sprintf("p%d.test", p.id), fmt.Sprintf("/d/%d/", p.id)
			for _, r := range reqs {
				if strings.Contains(r, host) || (strings.Contains(r, path) && !strings.HasSuffix(r, path+"page.html")) {
					loaded = r
					break
				}
			}
			switch {
			case p.clean && loaded != "":
				bypasses++
				t.Errorf("page %d (%s): the checker passes it, and Chromium requested %s:\n%s", p.id, p.how, loaded, p.doc)
			case !p.clean && loaded == "":
				refusedQuiet++
			default:
				agreed++
			}
		}
	}
	t.Logf("%d pages in %s: %d agreed, %d refused that loaded nothing here (the safe side), %d bypasses",
		pages, time.Since(start).Round(time.Second), agreed, refusedQuiet, bypasses)
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// exampleHost matches the seeds' outside hosts, which each page gets its own name for, so that
// a request names the page that made it.
var exampleHost = regexp.MustCompile(`[a-z0-9-]+\.(example|test)\b`)

// mutate returns a variant of doc with its outside hosts renamed for page id, and how it was
// made. Each mutation keeps the page's meaning for a browser in most cases and tries another
// way of writing it; whether it does is the browser's to say.
func mutate(rng *rand.Rand, doc string, id int) (string, string) {
	host := fmt.Sprintf("p%d.test", id)
	doc = exampleHost.ReplaceAllString(doc, host)
	var hows []string
	for n := 1 + rng.IntN(3); n > 0; n-- {
		m := mutations[rng.IntN(len(mutations))]
		doc = m.f(rng, doc)
		hows = append(hows, m.name)
	}
	return strings.Join(hows, "+"), doc
}

var mutations = []struct {
	name string
	f    func(rng *rand.Rand, doc string) string
}{
	{"entity_scheme", func(rng *rand.Rand, doc string) string {
		forms := []string{"&#104;", "&#x68;", "&#104", "&#X68", "&#0000104;"}
		return strings.Replace(doc, "https:", forms[rng.IntN(len(forms))]+"ttps&colon;", 1)
	}},
	{"upper_case", func(rng *rand.Rand, doc string) string {
		return regexp.MustCompile(`<([a-z]+)|\s([a-z-]+)=`).ReplaceAllStringFunc(doc, func(s string) string {
			if rng.IntN(2) == 0 {
				return strings.ToUpper(s)
			}
			return s
		})
	}},
	{"whitespace_in_url", func(rng *rand.Rand, doc string) string {
		ws := []string{" ", "\t", "\n", "\x01", "\r\n"}
		w := ws[rng.IntN(len(ws))]
		return strings.Replace(doc, "https://", w+"ht"+strings.Trim(w, " \x01")+"tps://", 1)
	}},
	{"quotes", func(rng *rand.Rand, doc string) string {
		if rng.IntN(2) == 0 {
			return strings.ReplaceAll(doc, `="`, `='`)
		}
		return regexp.MustCompile(`="([^"\s>]*)"`).ReplaceAllString(doc, "=$1")
	}},
	{"data_iframe", func(rng *rand.Rand, doc string) string {
		switch rng.IntN(4) {
		case 0:
			return `<iframe src="data:text/html;base64,` + base64.StdEncoding.EncodeToString([]byte(doc)) + `"></iframe>`
		case 1:
			return `<iframe src="data:text/html;base64,` + base64.StdEncoding.EncodeToString([]byte(doc)) + `#x"></iframe>`
		case 2:
			return `<iframe src="data:text/html;charset=utf-8,` + url.PathEscape(doc) + `"></iframe>`
		}
		return `<iframe src="data:text/html , ` + strings.ReplaceAll(url.PathEscape(doc), "%2F", "/") + `"></iframe>`
	}},
	{"srcdoc", func(rng *rand.Rand, doc string) string {
		return `<iframe srcdoc="` + strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(doc) + `"></iframe>`
	}},
	{"wrap", func(rng *rand.Rand, doc string) string {
		wraps := [][2]string{{"<svg>", "</svg>"}, {"<math>", "</math>"}, {"<table>", "</table>"}, {"<template>", "</template>"},
			{"<svg><foreignObject>", "</foreignObject></svg>"}, {"<select>", "</select>"}, {"<b><i>", "</b></i>"},
			{"<svg><title>", "</title></svg>"}, {"<math><mi>", "</mi></math>"}, {"<object>", "</object>"}}
		w := wraps[rng.IntN(len(wraps))]
		return w[0] + doc + w[1]
	}},
	{"deep", func(rng *rand.Rand, doc string) string {
		return strings.Repeat("<div>", 510+rng.IntN(20)) + doc
	}},
	{"encoding", func(rng *rand.Rand, doc string) string {
		switch rng.IntN(4) {
		case 0:
			return utf16("\uFEFF"+doc, rng.IntN(2) == 0)
		case 1:
			return `<meta charset="windows-1252">` + doc
		case 2:
			return "<meta charset=\"shift_jis\">" + strings.Replace(doc, `"https`, "\"\x81\\\"https", 1)
		}
		return "\xef\xbb\xbf" + doc
	}},
	{"css_escape", func(rng *rand.Rand, doc string) string {
		forms := []string{`u\72l(`, `\75rl(`, `url( `, `URL(`, `u\000072l(`}
		doc = strings.Replace(doc, "url(", forms[rng.IntN(len(forms))], 1)
		return strings.Replace(doc, "https", `https`+[]string{"", `\:`, ""}[rng.IntN(3)], 0)
	}},
	{"css_comment", func(rng *rand.Rand, doc string) string {
		return strings.Replace(doc, `")`, `" /*c*/)`, 1)
	}},
	{"duplicate_attr", func(rng *rand.Rand, doc string) string {
		return regexp.MustCompile(`<(img|iframe|script|link) `).ReplaceAllString(doc, `<$1 src="data:,x" href="#" `)
	}},
	{"noscript", func(rng *rand.Rand, doc string) string {
		return "<noscript>" + doc + "</noscript>"
	}},
	{"svg_document", func(rng *rand.Rand, doc string) string {
		svg := `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml">` + doc + `</body></foreignObject></svg>`
		return `<iframe src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(svg)) + `"></iframe>`
	}},
	{"utf16_data", func(rng *rand.Rand, doc string) string {
		return `<iframe src="data:text/html;charset=utf-16le;base64,` + base64.StdEncoding.EncodeToString([]byte(utf16(doc, false))) + `"></iframe>`
	}},
	{"bad_url", func(rng *rand.Rand, doc string) string {
		mods := []string{` /* c */`, ` cross-origin(anonymous)`, ` referrer-policy(no-referrer)`, "\n"}
		return regexp.MustCompile(`url\(["']?([^)"']*)["']?\)`).ReplaceAllString(doc, `url("$1"`+mods[rng.IntN(len(mods))]+`)`)
	}},
	{"comment_break", func(rng *rand.Rand, doc string) string {
		forms := []string{"<!-->", "<!--->", "<!---->", "<!-- --!>", "<!--x-->"}
		return forms[rng.IntN(len(forms))] + doc
	}},
}
