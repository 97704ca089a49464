package pipeline

import (
	"path/filepath"
	"strings"
)

// A module file's import.meta.url is its own URL, and import.meta.resolve(spec) a URL from
// it; Vite's build keeps both as written (only new URL('./x', import.meta.url) is rewritten)
// and the chunk that holds the module is a file beside the page, so they name files beside
// it. The built page holds every module in one file, where both are the page's own URL: a
// page script's bare import.meta.url names another URL than in the page as written (what
// it is compared with, or resolves, differs) and what import.meta.resolve gives is no file
// of the bundle. So each is refused at its place in a module file of the page's scripts,
// with the form that works. Not where they are the same: a module script written in the
// page (its URL is the page's, as written and as built), the second argument of
// new URL(…) (rewritten, or left by /* @vite-ignore */ or a data: URL, which is its own
// URL), a worker (bundled on its own, import.meta.url its own URL as in Vite), a package's
// module (not the author's to change; esbuild keeps it).

// wholeMeta refuses import.meta read as a whole at the significant token i (const m =
// import.meta, const { url } = import.meta, import.meta["url"], f(import.meta)): its url is
// read where bareMeta cannot see it, so it is refused where bareMeta refuses a bare url.
func (r *rewrite) wholeMeta(i int) {
	if len(r.chain) > 0 {
		return
	}
	if ext := strings.ToLower(filepath.Ext(r.file)); ext == ".html" || ext == ".htm" {
		return
	}
	r.errAt(i, "import.meta read as a whole holds this module's URL ("+filepath.Base(r.file)+") in the page as written, and the built page's own URL after the build, which holds every module",
		"read import.meta.env.NAME for a variable; to name a file of the app, write new URL('./file.png', import.meta.url), which bundle turns into the file's data: URL; for the page's own URL, write location.href")
}

// bareMeta refuses import.meta.url or import.meta.resolve at the significant token i
// ("import") where it is not the same after the build.
func (r *rewrite) bareMeta(i int) {
	if len(r.chain) > 0 || r.metaArg[i] {
		return
	}
	if ext := strings.ToLower(filepath.Ext(r.file)); ext == ".html" || ext == ".htm" {
		return // a module script written in the page: the page's URL both ways
	}
	name := filepath.Base(r.file)
	if r.s.is(i+4, "resolve") {
		r.errAt(i, "import.meta.resolve gives a URL beside this module ("+name+"), and beside the built page after the build, where no file is: the bundle is one file",
			"to use a file of the app, write new URL('./file.png', import.meta.url), which bundle turns into the file's data: URL; to load a module, import it")
		return
	}
	r.errAt(i, "import.meta.url is this module's URL ("+name+") in the page as written, and the built page's own URL after the build, which holds every module: what it names or is compared with differs",
		"to name a file of the app, write new URL('./file.png', import.meta.url), which bundle turns into the file's data: URL; for the page's own URL, write location.href")
}
