//go:build linux

package confine

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Program returns the files the program at path needs to start, for a Fence's Exec: the
// program (its symbolic links resolved), and for an ELF program its interpreter, the loader's
// cache and the shared libraries it loads, found in the dynamic loader's order (ld.so(8)): the
// object's DT_RPATH when it has no DT_RUNPATH, its DT_RUNPATH, the folders of
// /etc/ld.so.conf, then the default folders, each folder's glibc-hwcaps subfolders first. A
// script's interpreter (#!) is followed. Last come the folders of the C library and its
// siblings, whose other libraries a native addon the program loads may need (librt for
// Tailwind CSS's scanner); a Fence lets them be read and listed, and their files run. The
// caller owns the slice.
//
// The answer for a path is kept: a process that has fenced itself (and may no longer read
// /etc/ld.so.conf) gets what it was told before.
func Program(path string) ([]string, error) {
	if files, ok := programCache.Load(path); ok {
		return slices.Clone(files.([]string)), nil
	}
	p := &programs{seen: map[string]bool{}}
	if err := p.add(path, 0); err != nil {
		return nil, err
	}
	files := p.files
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "libc.so") {
			p.file(filepath.Dir(f))
		}
	}
	programCache.Store(path, slices.Clone(p.files))
	return p.files, nil
}

// programCache holds Program's answers, by path.
var programCache sync.Map

type programs struct {
	files  []string
	seen   map[string]bool
	system []string // the loader's folders after the objects' own, read once
}

func (p *programs) file(path string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || p.seen[real] {
		return real, false
	}
	p.seen[real] = true
	p.files = append(p.files, real)
	return real, true
}

// add adds the program at path and what it needs; depth counts the interpreters of scripts.
func (p *programs) add(path string, depth int) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	real, fresh := p.file(path)
	if !fresh {
		return nil
	}
	head := make([]byte, 256)
	f, err := os.Open(real)
	if err != nil {
		return err
	}
	defer f.Close()
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	if rest, ok := bytes.CutPrefix(head, []byte("#!")); ok && depth < 4 {
		line, _, _ := bytes.Cut(rest, []byte("\n"))
		if fields := strings.Fields(string(line)); len(fields) > 0 {
			return p.add(fields[0], depth+1)
		}
		return nil
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil // not a program the loader reads
	}
	defer ef.Close()
	var interp string
	for _, prog := range ef.Progs {
		if prog.Type == elf.PT_INTERP {
			b := make([]byte, prog.Filesz)
			if _, err := prog.ReadAt(b, 0); err == nil {
				interp = string(bytes.TrimRight(b, "\x00"))
			}
		}
	}
	if interp == "" {
		return nil // static
	}
	p.file(interp)
	if _, err := os.Stat("/etc/ld.so.cache"); err == nil {
		p.file("/etc/ld.so.cache")
	}
	p.libraries(ef, real, nil)
	return nil
}

// libraries adds the shared libraries the object obj (at path) needs, and theirs; inherited is
// the DT_RPATH of the objects that load it (the loader searches a DT_RPATH for every object
// below the one that has it, unless that object has a DT_RUNPATH).
func (p *programs) libraries(obj *elf.File, path string, inherited []string) {
	needed, _ := obj.ImportedLibraries()
	rpath := expandOrigin(dynPaths(obj, elf.DT_RPATH), path)
	runpath := expandOrigin(dynPaths(obj, elf.DT_RUNPATH), path)
	var dirs []string
	if len(runpath) == 0 {
		inherited = append(append([]string(nil), rpath...), inherited...)
		dirs = append(dirs, inherited...)
	} else {
		inherited = nil
	}
	dirs = append(dirs, runpath...)
	dirs = append(dirs, p.systemDirs()...)
	for _, name := range needed {
		lib := p.find(name, dirs, obj)
		if lib == "" {
			continue // the loader fails too; its message will say which
		}
		real, fresh := p.file(lib)
		if !fresh {
			continue
		}
		if f, err := elf.Open(real); err == nil {
			p.libraries(f, real, inherited)
			f.Close()
		}
	}
}

// find returns the first file called name in dirs (a name with a slash is a path) that is a
// shared object of obj's class and machine, adding the glibc-hwcaps variants of it it meets.
func (p *programs) find(name string, dirs []string, obj *elf.File) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, dir := range dirs {
		variants, _ := filepath.Glob(filepath.Join(dir, "glibc-hwcaps", "*", name))
		for _, v := range variants {
			if sameKind(v, obj) {
				p.file(v)
			}
		}
		if c := filepath.Join(dir, name); sameKind(c, obj) {
			return c
		}
	}
	return ""
}

func sameKind(path string, obj *elf.File) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Class == obj.Class && f.Machine == obj.Machine
}

func dynPaths(f *elf.File, tag elf.DynTag) []string {
	vals, _ := f.DynString(tag)
	var out []string
	for _, v := range vals {
		for _, d := range strings.Split(v, ":") {
			if d != "" {
				out = append(out, d)
			}
		}
	}
	return out
}

// expandOrigin replaces $ORIGIN, the folder of the object at path, in dirs.
func expandOrigin(dirs []string, path string) []string {
	origin := filepath.Dir(path)
	for i, d := range dirs {
		d = strings.ReplaceAll(d, "${ORIGIN}", origin)
		dirs[i] = strings.ReplaceAll(d, "$ORIGIN", origin)
	}
	return dirs
}

// systemDirs are the loader's folders after an object's own: those /etc/ld.so.conf lists
// (what its cache holds), then the default ones.
func (p *programs) systemDirs() []string {
	if p.system == nil {
		p.system = ldConf("/etc/ld.so.conf", 0)
		p.system = append(p.system, "/lib64", "/usr/lib64", "/lib", "/usr/lib")
	}
	return p.system
}

// ldConf reads the folders of an ld.so.conf file, following its include lines.
func ldConf(path string, depth int) []string {
	f, err := os.Open(path)
	if err != nil || depth > 8 {
		return nil
	}
	defer f.Close()
	var dirs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case strings.HasPrefix(line, "include") && len(line) > 7 && (line[7] == ' ' || line[7] == '\t'):
			for _, pat := range strings.Fields(line[8:]) {
				if !filepath.IsAbs(pat) {
					pat = filepath.Join(filepath.Dir(path), pat)
				}
				matches, _ := filepath.Glob(pat)
				for _, m := range matches {
					dirs = append(dirs, ldConf(m, depth+1)...)
				}
			}
		case strings.HasPrefix(line, "hwcap "):
		default:
			dirs = append(dirs, line)
		}
	}
	return dirs
}
