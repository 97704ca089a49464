// Package chrome finds and configures the Chromium that bundle render and the tests run:
// headless, a fresh profile, and every request sent through a proxy of the caller's.
package chrome

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/chromedp/chromedp"
)

// ErrNotFound is returned (wrapped) when no Chromium can be found.
var ErrNotFound = errors.New("Chromium is not installed")

// Find returns the Chromium or Chrome executable to run: path when given (a file or a
// name on PATH), else $BUNDLE_CHROME, else the first of chromium, chromium-browser,
// google-chrome-stable, google-chrome and chrome on PATH, else the usual install places.
func Find(path string) (string, error) {
	if path == "" {
		path = os.Getenv("BUNDLE_CHROME")
	}
	if path != "" {
		exe, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%w at %s (%v): %s", ErrNotFound, path, err, install)
		}
		return exe, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome-stable", "google-chrome", "chrome",
		"/usr/bin/chromium", "/snap/bin/chromium",
		"/Applications/Chromium.app/Contents/MacOS/Chromium", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"} {
		if exe, err := exec.LookPath(name); err == nil {
			return exe, nil
		}
	}
	return "", fmt.Errorf("%w: %s", ErrNotFound, install)
}

const install = "install it (Debian, Ubuntu: sudo apt-get install -y chromium; macOS: brew install --cask chromium; GitHub Actions' Ubuntu runners have google-chrome) or pass --chrome PATH"

// Options are the flags Chromium runs with: headless, a fresh profile in userDataDir, no
// background traffic of its own, no WebRTC UDP outside a proxy, and every request, loopback
// included, sent to the proxy at proxyAddr (none when it is ""). With sameProcess, frames from other sites stay in the page's process (site
// isolation off), so that a frame's events reach the page's target; origins stay as separate
// as ever. With ignoreCerts, the proxy's own certificate is accepted.
func Options(exe, userDataDir, proxyAddr string, sameProcess, ignoreCerts bool) []chromedp.ExecAllocatorOption {
	disabled := "Translate,AutofillServerCommunication,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater"
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(userDataDir),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		// WebRTC gathers candidates outside any proxy: STUN over UDP, and DNS for the name of
		// any STUN server a page gives. With UDP only through a proxy (which cannot carry it),
		// nothing of it leaves.
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("force-webrtc-ip-handling-policy", true),
	)
	if proxyAddr != "" {
		opts = append(opts, chromedp.Flag("proxy-server", "http://"+proxyAddr),
			// Send loopback through the proxy too, so that it sees every request.
			chromedp.Flag("proxy-bypass-list", "<-loopback>"))
	}
	if sameProcess {
		disabled += ",IsolateOrigins,site-per-process,SitePerProcess"
		opts = append(opts, chromedp.Flag("disable-site-isolation-trials", true))
	}
	if ignoreCerts {
		opts = append(opts, chromedp.IgnoreCertErrors)
	}
	return append(opts, chromedp.Flag("disable-features", disabled))
}

// IsBrowserService reports whether a request (as "METHOD URL" or "CONNECT host:port") goes to
// one of Chromium's own services (component updates, autofill), which the browser makes
// whatever page is open. They are the browser's, not the page's: a page cannot make Chromium
// send them.
func IsBrowserService(req string) bool {
	for _, h := range []string{".googleapis.com", ".gvt1.com", ".google.com", ".gstatic.com"} {
		if strings.Contains(req, h+":") || strings.Contains(req, h+"/") || strings.HasSuffix(req, h) {
			return true
		}
	}
	return false
}
