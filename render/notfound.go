package render

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// A host frames an app at a URL of its own (render at /N/name.html), never at "/": an app
// whose router reads the URL's path (React Router's BrowserRouter and createBrowserRouter,
// TanStack Router's browser history) matches no route there, and shows its router's page for
// that. Render reads what the app's frame shows, in a world of its own, and fails a page that
// shows a known router's not-found or error page.

// textWorld is the isolated world render reads the app's document in.
const textWorld = "bundle-render-text"

// routerPages finds, in the app's document, the pages the common routers show by default when
// no route matches: React Router's error element (an h2 "Unexpected Application Error!" and
// an h3 with the status, "404 Not Found"), TanStack Router's DefaultGlobalNotFound (a p with
// "Not Found" alone). It returns {router, text, path, body}: the router ("" for none), the
// text it shows, the frame's path as the app left it, and the text of the whole document as
// rendered (innerText: what is hidden left out).
const routerPages = `(() => {
  const text = (e) => (e.textContent || "").replace(/\s+/g, " ").trim();
  const shown = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== "hidden"; };
  const path = location.pathname + location.search + location.hash;
  const body = document.body ? document.body.innerText : "";
  for (const h2 of document.querySelectorAll("h2")) {
    if (text(h2) !== "Unexpected Application Error!" || !shown(h2)) continue;
    const h3 = h2.nextElementSibling;
    return { router: "React Router", text: h3 && h3.tagName === "H3" ? text(h3) : "", path, body };
  }
  for (const p of document.querySelectorAll("p")) {
    if (p.childElementCount === 0 && text(p) === "Not Found" && shown(p)) return { router: "TanStack Router", text: "Not Found", path, body };
  }
  return { router: "", text: "", path, body };
})()`

// notFound reads the app's frame in tab: what it shows (rep.Text), and an error when it shows
// a known router's not-found or error page.
func (r *Renderer) notFound(tab context.Context, rep *Report) {
	ctx, cancel := context.WithTimeout(tab, 5*time.Second)
	defer cancel()
	tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil || tree.FrameTree == nil || len(tree.FrameTree.ChildFrames) == 0 {
		return
	}
	// The host page has one frame: the app's.
	frame := tree.FrameTree.ChildFrames[0].Frame
	world, err := chromedp.Call(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame.ID, WorldName: textWorld})
	if err != nil {
		return
	}
	byValue := true
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: routerPages, ContextID: world.ExecutionContextID, ReturnByValue: &byValue})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil {
		return
	}
	var shown struct{ Router, Text, Path, Body string }
	if json.Unmarshal(res.Result.Value, &shown) != nil {
		return
	}
	rep.Text = shown.Body
	if shown.Router == "" {
		return
	}
	fix := map[string]string{
		"React Router":    "route on the hash or in memory: createHashRouter or createMemoryRouter (HashRouter, MemoryRouter) instead of createBrowserRouter (BrowserRouter)",
		"TanStack Router": "give createRouter a hash or memory history: history: createHashHistory() (or createMemoryHistory({ initialEntries: [\"/\"] })) from @tanstack/react-router",
	}[shown.Router]
	if shown.Router == "React Router" && !strings.HasPrefix(shown.Text, "404") {
		rep.add(Error, "router", fmt.Sprintf("the page shows React Router's error page (%q) at %s: a route's loader or element threw, and the route has no errorElement", shown.Text, shown.Path), 0, 0)
		return
	}
	rep.add(Error, "router", fmt.Sprintf("the page shows %s's not-found page (%q) at %s: a host frames the app at a path of its own (render loaded %s), which a router that reads the URL's path matches to no route; %s",
		shown.Router, shown.Text, shown.Path, rep.Path, fix), 0, 0)
}
