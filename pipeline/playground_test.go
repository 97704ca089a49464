package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/miniapp/bundle/internal/testwait"

	"github.com/miniapp/bundle/diag"
	"github.com/miniapp/bundle/pipeline/browsertest"
)

// Vite's playground (github.com/vitejs/vite, playground/<name>/__tests__/*.spec.ts) is the
// test of the README's claim that a Vite app builds as in Vite. Each playground below is our
// own fixture app under testdata/playground/<name> (never Vite's files) that exercises what
// the playground's build-mode spec checks, with the spec's assertions written as checks on
// the running page. TestPlayground builds each fixture with bundle and with Vite 8 (installed
// in testdata/playground by scripts/test) in the same run, runs the same checks on both pages
// in Chromium, prints the count of each, and fails on a check Vite passes and bundle does
// not, unless the row names why bundle refuses it by design.

// check is one assertion of a spec, run in the page.
type check struct {
	spec string // the spec's test it comes from
	js   string // an expression evaluated in the page (await allowed); its value is matched
	// want matches the value: "~re" a regular expression on its string, "!~re" none, "*s" a
	// substring, else the value's JSON.
	want string
	// byDesign, when set, says why bundle's page cannot pass it (a file beside the page, a
	// plugin bundle does not run): the check then runs on Vite's page only, and the row is
	// shown in the table with the reason.
	byDesign string
	// gap, when set, says why bundle's page does not pass it yet, where Vite's does: a row of
	// work to do, not a refusal. The test fails when a gap's check passes (the row must go).
	gap string
}

// refusal is a spec assertion that cannot hold for one offline file: the build refuses the
// app that does it, or warns that the page cannot do it (fetch of a file beside the page),
// and the test asserts that message.
type playRefusal struct {
	spec  string
	files map[string]string // an app beside the fixture's manifest
	want  string            // a substring of the diagnostics
}

// playground is one of Vite's playgrounds, ported.
type playground struct {
	name string
	page string            // the page Vite's build and the checks visit, "index.html" when empty
	env  map[string]string // the builder's environment, for both builds
	base string            // the config's base, where Vite's files are served ("/" when empty)
	// nested are packages installed below another package's node_modules, as npm links a
	// dependency that needs another version than the app's (link → its folder, both relative
	// to the playground): npm ci makes no such link for a workspace's file: package, and no
	// node_modules is committed, so the test makes them.
	nested map[string]string
	checks []check
	// output checks the build's output: bundle's page, or every file Vite wrote.
	output []outputCheck
	// refusals are assertions bundle refuses by design, each shown by a build that fails.
	refusals []playRefusal
	// skipped names the spec's build-mode assertions not ported and why: they check Vite's
	// preview server or the names of the files beside its page, which one file does not have.
	skipped []string
}

// outputCheck is an assertion on the built text, or with log on what the build said (bundle's
// warnings, Vite's output).
type outputCheck struct {
	spec     string
	contains string
	not      bool
	log      bool
	gap      string // as check's
}

// pgResult is one page's outcome, check by check.
type pgResult struct {
	Spec, Want string
	OK         bool
	Got        json.RawMessage
}

// playgroundRoot is the npm workspace of the fixtures; its node_modules has Vite and the CSS
// tools, installed by scripts/test.
const playgroundRoot = "testdata/playground"

// pageHelpers is evaluated in each page before its checks: the functions the checks call.
// files maps each file of the fixture to its SHA-256 (and an SVG to its text without white
// space and quote differences, as Vite's svgToDataURL changes them), so that a check can say
// which file a URL serves, whatever the URL looks like (a data: URL, or Vite's hashed file).
const pageHelpers = `(() => {
  const q = (s) => { const e = document.querySelector(s); if (!e) throw new Error("no element " + s); return e; };
  const svgNorm = (s) => s.replace(/\s+/g, "").replace(/"/g, "'");
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
  async function bytesOf(u) {
    u = String(u);
    if (u.startsWith("data:")) {
      const comma = u.indexOf(",");
      const head = u.slice(5, comma), body = u.slice(comma + 1).replace(/#.*$/, "");
      if (/;base64$/i.test(head)) return Uint8Array.from(atob(decodeURIComponent(body)), (c) => c.charCodeAt(0));
      const out = [];
      for (let i = 0; i < body.length; i++) {
        if (body[i] === "%" && /^[0-9a-f]{2}$/i.test(body.slice(i + 1, i + 3))) { out.push(parseInt(body.slice(i + 1, i + 3), 16)); i += 2; }
        else out.push(...new TextEncoder().encode(body[i]));
      }
      return new Uint8Array(out);
    }
    const r = await fetch(new URL(u, location.href).href.replace(/#.*$/, ""));
    if (!r.ok) throw new Error(r.status + " " + u);
    return new Uint8Array(await r.arrayBuffer());
  }
  window.__pg = {
    q,
    text: (s) => q(s).textContent,
    html: (s) => q(s).innerHTML,
    attr: (s, a) => q(s).getAttribute(a),
    color: (s) => getComputedStyle(q(s)).color,
    style: (s, p) => getComputedStyle(q(s)).getPropertyValue(p),
    bg: (s) => getComputedStyle(q(s)).backgroundImage,
    urls: (v) => [...String(v).matchAll(/url\("((?:[^"\\]|\\.)*)"\)/g)].map((m) => m[1]),
    logs: () => window.__logs || [],
    // file says which fixture file the URL serves: its name, or "?" and the URL's start.
    async file(u) {
      let b;
      try { b = await bytesOf(u); } catch (e) { return "unreadable " + String(u).slice(0, 60) + ": " + e.message; }
      const h = hex(await crypto.subtle.digest("SHA-256", b));
      const t = svgNorm(new TextDecoder().decode(b));
      for (const [name, f] of Object.entries(__pgFiles)) if (f.sha === h || (f.svg && f.svg === t)) return name;
      return "? " + String(u).slice(0, 60);
    },
    // files says which files the URLs of a CSS value (url(), image-set()) serve, each once.
    async files(v) {
      const names = await Promise.all(__pg.urls(v).map((u) => __pg.file(u)));
      return [...new Set(names)].join(",");
    },
    async bgFiles(s) { return __pg.files(__pg.bg(s)); },
    async textOf(u) { return new TextDecoder().decode(await bytesOf(u)); },
    // srcFiles says which files an srcset's URLs serve, each once.
    async srcFiles(s) {
      // The HTML standard's srcset parser, for its URLs: a URL runs to white space (a data:
      // URL's commas are its own), then descriptors to a comma.
      const urls = [];
      for (let i = 0; i < s.length; ) {
        while (i < s.length && /[\s,]/.test(s[i])) i++;
        let j = i;
        while (j < s.length && !/\s/.test(s[j])) j++;
        let u = s.slice(i, j);
        i = j;
        if (u.endsWith(",")) u = u.replace(/,+$/, "");
        else { while (i < s.length && s[i] !== ",") i++; }
        if (u) urls.push(u);
      }
      const names = await Promise.all(urls.map((u) => __pg.file(u)));
      return [...new Set(names)].join(",");
    },
    click(s) { q(s).click(); return true; },
    // canon is JSON with every object's keys sorted, as Go's encoding/json writes a map.
    canon(v) {
      const sort = (x) => Array.isArray(x) ? x.map(sort) : x && typeof x === "object" ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort(x[k])])) : x;
      return JSON.stringify(sort(v));
    },
  };
})()`

// logRecorder runs before each page's scripts: console.log's lines, which some specs read.
const logRecorder = `window.__logs = []; { const log = console.log; console.log = (...a) => { window.__logs.push(a.map(String).join(" ")); log.apply(console, a); }; }`

// runChecks runs a page's checks, each awaited until it matches, all within one deadline,
// and returns each outcome.
func runChecks(t *testing.T, b *browsertest.Browser, dir string, checks []check) []pgResult {
	t.Helper()
	files := map[string]map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.IsDir() && (d.Name() == "dist" || d.Name() == ".git") {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(data)
		f := map[string]string{"sha": hex.EncodeToString(sum[:])}
		if strings.HasSuffix(p, ".svg") {
			f["svg"] = strings.ReplaceAll(strings.Join(strings.Fields(string(data)), ""), `"`, "'")
		}
		files[filepath.ToSlash(rel)] = f
		return nil
	})
	fj, _ := json.Marshal(files)
	var fns []string
	for _, c := range checks {
		fns = append(fns, "async () => ("+c.js+")")
	}
	var click []bool
	for _, c := range checks {
		click = append(click, strings.Contains(c.js, "click("))
	}
	clicks, _ := json.Marshal(click)
	wants, _ := json.Marshal(func() []string {
		var w []string
		for _, c := range checks {
			w = append(w, c.want)
		}
		return w
	}())
	script := `(async () => {
  window.__pgFiles = ` + string(fj) + `;
  ` + pageHelpers + `;
  const checks = [` + strings.Join(fns, ",\n") + `];
  const wants = ` + string(wants) + `;
  const clicks = ` + string(clicks) + `;
  const match = (v, w) => {
    const s = typeof v === "string" ? v : JSON.stringify(v);
    if (s === undefined) return false;
    if (w.startsWith("!~")) return !new RegExp(w.slice(2)).test(s);
    if (w.startsWith("~")) return new RegExp(w.slice(1)).test(s);
    if (w.startsWith("*")) return s.includes(w.slice(1));
    return JSON.stringify(v) === w;
  };
  const end = Date.now() + ` + strconv.FormatInt(testwait.Scaled(8*time.Second).Milliseconds(), 10) + `;
  const out = [];
  for (let i = 0; i < checks.length; i++) {
    let v, ok = false;
    // Past the page's deadline, a check that clicks still has half a second to see what
    // the click does.
    const least = Date.now() + (clicks[i] ? 500 : 0);
    for (;;) {
      try { v = await checks[i](); } catch (e) { v = "threw: " + (e && e.message || e); }
      ok = match(v, wants[i]);
      if (ok || (Date.now() > end && Date.now() > least)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    out.push({ ok, got: v === undefined ? "undefined" : v });
  }
  return JSON.stringify(out);
})()`
	// The checks are tried until the page's deadline (8 s, scaled), then each once more.
	raw := browsertest.Eval[string](t, b, script)
	var outs []struct {
		OK  bool            `json:"ok"`
		Got json.RawMessage `json:"got"`
	}
	if err := json.Unmarshal([]byte(raw), &outs); err != nil {
		t.Fatalf("checks: %v: %s", err, raw)
	}
	res := make([]pgResult, len(checks))
	for i, c := range checks {
		res[i] = pgResult{Spec: c.spec, Want: c.want, OK: outs[i].OK, Got: outs[i].Got}
	}
	return res
}

// viteBuild builds the fixture with Vite into a temporary folder and returns its files.
func viteBuild(t *testing.T, dir string) (map[string][]byte, string, time.Duration, error) {
	t.Helper()
	vite, _ := filepath.Abs(filepath.Join(playgroundRoot, "node_modules", "vite", "bin", "vite.js"))
	if _, err := os.Stat(vite); err != nil {
		t.Fatalf("Vite is not installed in %s: run scripts/test, or npm ci there", playgroundRoot)
	}
	out := t.TempDir()
	cmd := exec.Command("node", vite, "build", "--outDir", out, "--emptyOutDir", "--logLevel", "warn")
	cmd.Dir = dir
	start := time.Now()
	msg, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return nil, string(msg), took, fmt.Errorf("vite build: %v\n%s", err, msg)
	}
	files := map[string][]byte{}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			files[filepath.ToSlash(rel)], _ = os.ReadFile(p)
		}
		return nil
	})
	return files, string(msg), took, nil
}

// visit serves files (path → bytes) on the browser's origin, loads page and runs the checks.
func visit(t *testing.T, b *browsertest.Browser, dir string, files map[string][]byte, base, page string, checks []check) ([]pgResult, []string) {
	t.Helper()
	b.Reset()
	if base == "" {
		base = "/"
	}
	page = strings.TrimPrefix(base, "/") + page
	for p, body := range files {
		p = strings.TrimPrefix(base, "/") + p
		ctype := mime.TypeByExtension(filepath.Ext(p))
		if strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".mjs") {
			ctype = "text/javascript"
		}
		b.Serve("/"+p, body, ctype)
	}
	b.Visit(t, b.URL(0, page), 0)
	res := runChecks(t, b, dir, checks)
	return res, b.Requests()
}

// TestPlayground runs each ported playground on bundle's page and on Vite's, and prints how
// many of its checks each passes.
func TestPlayground(t *testing.T) {
	b := browsertest.StartWith(t, browsertest.Config{InitScript: logRecorder})
	type count struct{ bundle, vite, total, byDesign, gaps int }
	var table []string
	var sum count
	for _, pg := range playgrounds {
		t.Run(pg.name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(playgroundRoot, pg.name))
			for link, target := range pg.nested {
				link = filepath.Join(dir, filepath.FromSlash(link))
				rel, _ := filepath.Rel(filepath.Dir(link), filepath.Join(dir, filepath.FromSlash(target)))
				if _, err := os.Lstat(link); err == nil {
					continue
				}
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(rel, link); err != nil {
					t.Fatal(err)
				}
			}
			for k, v := range pg.env {
				t.Setenv(k, v)
			}
			page := pg.page
			if page == "" {
				page = "index.html"
			}
			viteFiles, viteLog, viteTook, viteErr := viteBuild(t, dir)
			start := time.Now()
			res, err := Build(context.Background(), dir, Options{NoWrite: true})
			bundleTook := time.Since(start)
			var viteRes, bundleRes []pgResult
			var bundleReqs []string
			if viteErr != nil {
				t.Errorf("%v", viteErr)
			} else {
				viteRes, _ = visit(t, b, dir, viteFiles, pg.base, page, pg.checks)
			}
			allGaps := len(pg.checks) > 0
			for _, ch := range pg.checks {
				allGaps = allGaps && ch.gap != ""
			}
			if err != nil && allGaps {
				t.Logf("bundle build (every check is a gap): %v", err)
			} else if err != nil {
				t.Errorf("bundle build: %v", err)
			} else {
				bundleRes, bundleReqs = visit(t, b, dir, map[string][]byte{page: res.HTML}, pg.base, page, pg.checks)
				for _, r := range bundleRes {
					if !r.OK {
						t.Logf("bundle's page logged: %q", b.Console())
						break
					}
				}
				if len(bundleReqs) > 0 {
					t.Errorf("bundle's page made requests: %v", bundleReqs)
				}
			}
			var c count
			for i, ch := range pg.checks {
				v := viteRes != nil && viteRes[i].OK
				bu := bundleRes != nil && bundleRes[i].OK
				c.total++
				if v {
					c.vite++
				}
				if bu {
					c.bundle++
				}
				if ch.byDesign != "" {
					c.byDesign++
				}
				if ch.gap != "" {
					if !v && viteErr == nil {
						t.Errorf("%s: %s: a gap is a check Vite's page passes, and it fails it: %s", ch.spec, ch.js, viteRes[i].Got)
					}
					c.gaps++
					if bu {
						t.Errorf("%s: %s: bundle's page passes it now: remove its gap (%s)", ch.spec, ch.js, ch.gap)
					}
					continue
				}
				switch {
				case v && !bu && ch.byDesign == "":
					got := ""
					if bundleRes != nil {
						got = string(bundleRes[i].Got)
					}
					t.Errorf("%s: %s: Vite's page passes, bundle's does not: got %s, want %s", ch.spec, ch.js, got, ch.want)
				case !v && viteErr == nil:
					t.Logf("%s: %s: Vite's page fails it too: got %s, want %s", ch.spec, ch.js, viteRes[i].Got, ch.want)
				}
			}
			for _, oc := range pg.output {
				c.total++
				var viteText, bundleText strings.Builder
				switch {
				case oc.log:
					viteText.WriteString(viteLog)
					if res != nil {
						for _, d := range res.Warnings {
							bundleText.WriteString(d.String() + "\n")
						}
					}
				default:
					for _, f := range viteFiles {
						viteText.Write(f)
					}
					if res != nil {
						bundleText.Write(res.HTML)
					}
				}
				if viteErr == nil && strings.Contains(viteText.String(), oc.contains) != oc.not {
					c.vite++
				}
				if err == nil && strings.Contains(bundleText.String(), oc.contains) != oc.not {
					c.bundle++
					if oc.gap != "" {
						t.Errorf("%s: bundle passes it now: remove its gap (%s)", oc.spec, oc.gap)
					}
				} else if oc.gap != "" {
					c.gaps++
				} else {
					t.Errorf("%s: bundle's %s %s %q", oc.spec, map[bool]string{true: "warnings", false: "page"}[oc.log], map[bool]string{true: "hold", false: "lack"}[oc.not], oc.contains)
				}
			}
			for _, r := range pg.refusals {
				c.total++
				c.byDesign++
				if err := playgroundRefusal(t, r); err != nil {
					t.Errorf("%s: %v", r.spec, err)
				}
			}
			sum.bundle += c.bundle
			sum.vite += c.vite
			sum.total += c.total
			sum.byDesign += c.byDesign
			sum.gaps += c.gaps
			table = append(table, fmt.Sprintf("%-24s %4d %6d %4d %7d %4d   %6.0f ms %6.0f ms", pg.name, c.total, c.bundle, c.vite, c.byDesign, c.gaps,
				float64(bundleTook.Milliseconds()), float64(viteTook.Milliseconds())))
		})
	}
	sort.Strings(table)
	t.Logf("playground assertions (bundle's build time in process, Vite's as a command):\n%-24s %4s %6s %4s %7s %4s   %9s %9s\n%s\n%-24s %4d %6d %4d %7d %4d",
		"playground", "all", "bundle", "vite", "refused", "gaps", "bundle", "vite", strings.Join(table, "\n"), "total", sum.total, sum.bundle, sum.vite, sum.byDesign, sum.gaps)
}

// playgroundRefusal builds r's app and returns an error unless the build fails with r.want.
func playgroundRefusal(t *testing.T, r playRefusal) error {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	files := map[string]string{"miniapp.toml": "id = \"refused\"\nname = \"Refused\"\ndescription = \"A playground assertion bundle refuses.\"\n"}
	for k, v := range r.files {
		files[k] = v
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	res, err := Build(context.Background(), dir, Options{NoWrite: true})
	var list diag.List
	var el *diag.ListError
	switch {
	case errors.As(err, &el):
		list = el.List
	case err != nil:
		return fmt.Errorf("the build gives %v, want a refusal with %q", err, r.want)
	default:
		list = res.Warnings
	}
	var text string
	for _, d := range list {
		text += strings.ReplaceAll(d.String(), dir+"/", "") + "\n  " + d.Note + "\n"
	}
	if !strings.Contains(text, r.want) {
		return fmt.Errorf("the refusal says\n%s\nwant in it %q", text, r.want)
	}
	return nil
}

// jsonString is s as JSON.stringify writes it.
func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// text, match, color… write the spec's common assertions as checks.
func tText(spec, sel, want string) check {
	return check{spec: spec, js: fmt.Sprintf("__pg.text(%q)", sel), want: jsonString(want)}
}

func tMatch(spec, sel, re string) check {
	return check{spec: spec, js: fmt.Sprintf("__pg.text(%q)", sel), want: "~" + re}
}

func tHas(spec, sel, sub string) check {
	return check{spec: spec, js: fmt.Sprintf("__pg.text(%q)", sel), want: "*" + sub}
}

// cssColors are the named colors the specs compare with, as getComputedStyle gives them.
var cssColors = map[string]string{
	"black": "rgb(0, 0, 0)", "blue": "rgb(0, 0, 255)", "red": "rgb(255, 0, 0)", "green": "rgb(0, 128, 0)",
	"grey": "rgb(128, 128, 128)", "purple": "rgb(128, 0, 128)", "orange": "rgb(255, 165, 0)",
	"olive": "rgb(128, 128, 0)", "orchid": "rgb(218, 112, 214)", "pink": "rgb(255, 192, 203)",
	"turquoise": "rgb(64, 224, 208)", "orangered": "rgb(255, 69, 0)", "darkslateblue": "rgb(72, 61, 139)",
	"darkorange": "rgb(255, 140, 0)", "teal": "rgb(0, 128, 128)", "yellow": "rgb(255, 255, 0)",
	"magenta": "rgb(255, 0, 255)", "lavender": "rgb(230, 230, 250)", "plum": "rgb(221, 160, 221)",
	"coral": "rgb(255, 127, 80)", "darkcyan": "rgb(0, 139, 139)", "seagreen": "rgb(46, 139, 87)",
	"navy": "rgb(0, 0, 128)",
}

func tColor(spec, sel, name string) check {
	want, ok := cssColors[name]
	if !ok {
		want = name
	}
	return check{spec: spec, js: fmt.Sprintf("__pg.color(%q)", sel), want: jsonString(want)}
}

// bgFile checks that every URL of the element's background is the fixture's file.
func tBg(spec, sel, file string) check {
	return check{spec: spec, js: fmt.Sprintf("__pg.bgFiles(%q)", sel), want: jsonString(file)}
}

// textFile checks that the element's text is a URL of the fixture's file.
func tFile(spec, sel, file string) check {
	return check{spec: spec, js: fmt.Sprintf("__pg.file(__pg.text(%q))", sel), want: jsonString(file)}
}

// tJSON checks that the element's text is JSON equal to want, whatever the order of keys (as
// the specs' toStrictEqual).
func tJSON(spec, sel, want string) check {
	var v any
	if err := json.Unmarshal([]byte(want), &v); err != nil {
		panic(fmt.Sprintf("%s: %v", spec, err))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return check{spec: spec, js: fmt.Sprintf("__pg.canon(JSON.parse(__pg.text(%q)))", sel), want: jsonString(strings.TrimSuffix(buf.String(), "\n"))}
}

// js is a check of any expression.
func tJS(spec, expr, want string) check { return check{spec: spec, js: expr, want: want} }

// byDesign marks c as one bundle's page cannot pass, saying why.
func (c check) byDesignBecause(why string) check { c.byDesign = why; return c }

// notYet marks c as one bundle's page does not pass yet, saying what is missing.
func (c check) notYet(why string) check { c.gap = why; return c }

var _ = regexp.MustCompile
