package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/miniapp/bundle/confine"
	"github.com/miniapp/bundle/pipeline"
)

// fenceEnv turns the kernel's fence off when set to "off": to measure what the fence costs,
// or on a machine where it is in the way. The build's path checks hold either way.
const fenceEnv = "BUNDLE_FENCE"

// fence confines this process (build and dev are one-shot or single-app processes) to what
// building the apps in dirs with opts needs (pipeline.Fence): their roots to read, Node to
// run, their output folders and a private temporary folder to write, nothing else, not
// /proc/self/environ nor the home folder. It returns opts with that temporary folder, the
// fence that holds as bundle says it ("landlock v7"), or "" where the kernel's fence is off
// (fencesHeld says what held once the build is done), and done, which removes the temporary
// folder. A process run in a test (e.fence false) is never fenced: the test binary goes on to
// other tests.
//
// once says the process builds each app once (build, pin): an app whose build cannot start
// Node (pipeline.NeedsNode) is built with opts.NoNode, and the fence leaves Node out. dev,
// whose app may come to need Node while it runs (an npm install of Sass), lets Node in for an
// app with npm packages.
//
// extra are more files to read, those that exist: dev's name resolution (it listens on
// localhost).
func fence(e *env, dirs []string, opts pipeline.Options, once bool, extra ...string) (pipeline.Options, string, func(), error) {
	done := func() {}
	if !e.fence {
		return opts, "path checks", done, nil
	}
	if off := os.Getenv(fenceEnv) == "off"; off || confine.Available().ABI == 0 {
		// The path checks, and what held Node: said once the build is done (fencesHeld).
		opts.NoFence = off
		return opts, "", done, nil
	}
	// The first of the two rounds on every thread that the fence takes where the kernel
	// confines one thread at a time runs while the fence is gathered: it reads nothing.
	ready := make(chan error, 1) // buffered: an early return leaves it to end alone
	go func() { ready <- confine.Prepare() }()
	// Finding what Node needs to start is most of the fence's cost (1 ms and more): an app
	// that no tool can be run for does without (order-book, bench/heavy: packages, none a
	// tool's).
	opts.NoNode = once && !slices.ContainsFunc(dirs, pipeline.NeedsNode)
	var all confine.Fence
	for _, d := range dirs {
		f, err := pipeline.Fence(d, opts)
		if err != nil {
			// The build says what is wrong (a dist that leaves the app): it may read the
			// app to say it, and write nothing.
			f, _ = pipeline.Fence(d, pipeline.Options{NoWrite: true, NoNode: opts.NoNode})
		}
		all.Read = append(all.Read, f.Read...)
		all.Exec = append(all.Exec, f.Exec...)
		all.Write = append(all.Write, f.Write...)
	}
	// The private temporary folder (Node's): in an output folder, where the fenced process
	// may remove it when done, else (dev) in the system's, removed by a process started
	// before the fence. Only Node writes temporary files: a build whose fence lets it run
	// no Node (an app without npm packages or vite.config) gets none, and does not pay for
	// making and removing it.
	if len(all.Exec) > 0 {
		var tmp string
		var err error
		if len(all.Write) > 0 {
			tmp, err = os.MkdirTemp(all.Write[0], ".bundle-tmp-")
		} else if tmp, err = os.MkdirTemp("", "bundle-"); err == nil {
			err = removeAtExit(tmp)
		}
		if err != nil {
			return opts, "", done, err
		}
		done = func() { os.RemoveAll(tmp) }
		opts.TempDir = tmp
		if len(all.Write) == 0 {
			// In an output folder, the folder's rule holds for it: a rule of its own
			// would grant nothing more.
			all.Write = append(all.Write, tmp)
		}
		// The process's temporary folder too, for a build whose options do not name it
		// (dev's).
		os.Setenv("TMPDIR", tmp)
	}
	for _, p := range extra {
		if _, err := os.Stat(p); err == nil {
			all.Read = append(all.Read, p)
		}
	}
	for _, l := range []*[]string{&all.Read, &all.Exec, &all.Write} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	err := <-ready
	var st confine.Status
	if err == nil {
		st, err = all.Restrict()
	}
	if err != nil {
		return opts, "", done, fmt.Errorf("fence the build: %w (%s=off builds with the path checks alone)", err, fenceEnv)
	}
	return opts, st.String(), done, nil
}

// fencesHeld says which fences held the builds of this process where the kernel's fence was
// off: the path checks, and what held Node where it ran ("path checks, node permission model
// (BUNDLE_FENCE=off)"; pipeline.Fences).
func fencesHeld() string {
	held, note := pipeline.Fences()
	return saidFences(held, note)
}

// saidFences is held with the notes that are not "" in parentheses, BUNDLE_FENCE=off first
// where it is set: "path checks (BUNDLE_FENCE=off; Node v18.20.4 has no permission model)".
func saidFences(held string, notes ...string) string {
	if os.Getenv(fenceEnv) == "off" {
		notes = append([]string{fenceEnv + "=off"}, notes...)
	}
	notes = slices.DeleteFunc(notes, func(n string) bool { return n == "" })
	if len(notes) == 0 {
		return held
	}
	return held + " (" + strings.Join(notes, "; ") + ")"
}
