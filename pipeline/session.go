package pipeline

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// Session keeps what a series of builds of one app shares, for bundle dev: esbuild's
// incremental contexts, so that a rebuild parses again only the files that changed. A build
// given a Session makes the same bytes as one without. The contexts are made anew when the
// manifest or the environment changes. Builds with one Session must not run at once; Close
// it when done.
type Session struct {
	mu   sync.Mutex
	key  string
	b    *bundler
	ctxs map[string]api.BuildContext
}

// NewSession returns an empty Session.
func NewSession() *Session { return &Session{ctxs: map[string]api.BuildContext{}} }

// Close disposes of the contexts and stops the app's CSS tools.
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reset()
}

func (s *Session) reset() {
	for _, c := range s.ctxs {
		c.Dispose()
	}
	s.ctxs = map[string]api.BuildContext{}
	if s.b != nil {
		s.b.css.close()
		s.b = nil
	}
}

// bundler returns the session's bundler for a build whose inputs key says (the manifest,
// the environment, the options), reset for a new build: a bundler of another key is
// replaced, with its contexts.
func (s *Session) bundler(key string, make func() (*bundler, error)) (*bundler, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.b != nil && s.key == key {
		b := s.b
		b.inputs, b.legal, b.carry = map[string]int{}, nil, false
		b.codeIn, b.styleIn = map[string]bool{}, map[string]bool{}
		b.flags.assetURLs, b.flags.blobs, b.flags.styleData = false, false, false
		b.realDirs.Clear() // a folder may have become a link since
		b.workers = &workerBuilds{}
		// What the build listed and found, read anew (hostframe.go, folders.go, cjs.go).
		b.folders, b.public, b.routes, b.cjs = folders{}, publicListing{}, routes{}, cjsState{}
		b.browserMaps.Clear()
		b.packages.Clear()
		// The bound of each request to the app's Node, as the build's is (toolTimeout): no
		// request of the last build is in flight.
		b.css.runner.Timeout = toolTimeout
		return b, nil
	}
	s.reset()
	b, err := make()
	if err != nil {
		return nil, err
	}
	b.session = s
	s.b, s.key = b, key
	return b, nil
}

// build runs opts in the context made for options like them, making it the first time.
func (s *Session) build(ctx context.Context, opts api.BuildOptions) api.BuildResult {
	shape := opts
	shape.Plugins = nil
	k, err := json.Marshal(shape)
	if err != nil {
		return api.Build(opts)
	}
	for _, p := range opts.Plugins {
		k = append(k, "\x00"+p.Name...) // a worker's plugins name its chain
	}
	s.mu.Lock()
	c, ok := s.ctxs[string(k)]
	if !ok {
		var cerr *api.ContextError
		c, cerr = api.Context(opts)
		if cerr != nil {
			s.mu.Unlock()
			return api.Build(opts) // reports the same errors
		}
		s.ctxs[string(k)] = c
	}
	s.mu.Unlock()
	return rebuild(ctx, c, false)
}
