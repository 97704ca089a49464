package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miniapp/bundle/internal/testwait"
)

// TestREADMECIRecipe runs the steps of the README's GitHub Actions recipe, as a runner would,
// on a fresh clone of this repository: what the README tells users to put in CI must work.
// The checkout and setup-go steps are the clone and this machine's Go; bundle is installed
// from the clone rather than @latest, which is the same code once published.
func TestREADMECIRecipe(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to clone the repository: install it")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	steps := recipeSteps(string(readme))
	if len(steps) < 3 {
		t.Fatalf("the README's CI recipe has %d run steps: %q", len(steps), steps)
	}

	work := t.TempDir()
	clone := filepath.Join(work, "bundle")
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	// A clone of what is committed; an uncommitted change to the recipe is read from the
	// README above, which is what matters.
	runCmd(t, work, nil, "git", "clone", "--quiet", "--depth=1", "file://"+strings.TrimSpace(string(top)), clone)
	repo := filepath.Join(work, "repo") // the user's repository: a folder of apps
	for _, s := range []string{"hello", "todo-ts"} {
		copyTree(t, filepath.Join(clone, "samples", s), filepath.Join(repo, "apps", s))
	}
	bin := filepath.Join(work, "bin")
	env := append(os.Environ(), "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GOFLAGS=-mod=mod")
	for _, step := range steps {
		dir := repo
		if strings.HasPrefix(step, "go install github.com/miniapp/bundle/cmd/bundle@") {
			step, dir = "go install ./cmd/bundle", clone
		}
		// A page's handshake gets the tests' deadline rather than render's 10 s, which a
		// busy machine can take.
		if rest, ok := strings.CutPrefix(step, "bundle render "); ok && !strings.Contains(rest, "--timeout") {
			step = "bundle render --timeout " + testwait.Deadline().String() + " " + rest
		}
		t.Logf("run: %s", step)
		out := runCmd(t, dir, env, "bash", "-euo", "pipefail", "-c", step)
		if strings.Contains(out, "::error") {
			t.Errorf("step %q annotated an error:\n%s", step, out)
		}
	}
	for _, f := range []string{"dist/hello.html", "dist/todo-ts.html", "dist/registry.json", "shots/hello.png", "shots/todo-ts.png"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
			t.Errorf("after the recipe: %v", err)
		}
	}
}

// recipeSteps returns the run: steps of the README's workflow, in order.
func recipeSteps(readme string) []string {
	_, block, ok := strings.Cut(readme, "# .github/workflows/")
	if !ok {
		return nil
	}
	block, _, _ = strings.Cut(block, "```")
	var steps []string
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if cmd, ok := strings.CutPrefix(line, "- run: "); ok {
			if i := strings.Index(cmd, "   #"); i >= 0 {
				cmd = cmd[:i]
			}
			steps = append(steps, strings.TrimSpace(cmd))
		}
	}
	return steps
}

func runCmd(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			if d.Name() == "dist" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
