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
	p := &programs{seen: map[string]bool{}, caps: map[string]bool{}, found: map[string]string{}, real: map[string]string{}}
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
	system []string          // the loader's folders after the objects' own, read once
	caps   map[string]bool   // whether a folder has glibc-hwcaps subfolders
	found  map[string]string // find's answers, by name and folders: libc is needed by most
	// real holds the real paths of the files met, by the path they were met by: libc and
	// the loader are needed by every library, and resolving each link of their path again
	// (six system calls for /lib/x86_64-linux-gnu/libc.so.6) was half of Node's lookup.
	real map[string]string
}

func (p *programs) hwcaps(dir string) bool {
	has, ok := p.caps[dir]
	if !ok {
		st, err := os.Stat(filepath.Join(dir, "glibc-hwcaps"))
		has = err == nil && st.IsDir()
		p.caps[dir] = has
	}
	return has
}

func (p *programs) file(path string) (string, bool) {
	real, err := p.realPath(path)
	if err != nil || p.seen[real] {
		return real, false
	}
	p.seen[real] = true
	p.files = append(p.files, real)
	return real, true
}

// realPath is filepath.EvalSymlinks(path), the folder's real path found once for all the
// files met in it: every library of a program is in one of a few folders, reached through the
// same links (/lib to usr/lib).
func (p *programs) realPath(path string) (string, error) {
	if real, ok := p.real[path]; ok {
		return real, nil
	}
	dir, base := filepath.Split(filepath.Clean(path))
	if base == "" || dir == "" {
		return filepath.EvalSymlinks(path)
	}
	rdir, ok := p.real[dir] // with its trailing separator: no file's key
	if !ok {
		var err error
		if rdir, err = filepath.EvalSymlinks(dir); err != nil {
			return "", err
		}
		p.real[dir] = rdir
	}
	real := filepath.Join(rdir, base)
	st, err := os.Lstat(real)
	if err != nil {
		return "", err
	}
	if st.Mode()&os.ModeSymlink != 0 {
		if real, err = filepath.EvalSymlinks(real); err != nil {
			return "", err
		}
	}
	p.real[path] = real
	return real, nil
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
	dyn := dynamic(obj)
	needed := dyn[elf.DT_NEEDED]
	rpath := expandOrigin(splitPaths(dyn[elf.DT_RPATH]), path)
	runpath := expandOrigin(splitPaths(dyn[elf.DT_RUNPATH]), path)
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
	key := name + "\x00" + strings.Join(dirs, "\x00")
	if lib, ok := p.found[key]; ok {
		return lib
	}
	lib := p.search(name, dirs, obj)
	p.found[key] = lib
	return lib
}

// search is find, unremembered. (The objects of one program are of one class and machine.)
func (p *programs) search(name string, dirs []string, obj *elf.File) string {
	for _, dir := range dirs {
		if p.hwcaps(dir) {
			variants, _ := filepath.Glob(filepath.Join(dir, "glibc-hwcaps", "*", name))
			for _, v := range variants {
				if sameKind(v, obj) {
					p.file(v)
				}
			}
		}
		if c := filepath.Join(dir, name); sameKind(c, obj) {
			return c
		}
	}
	return ""
}

// sameKind reports whether the file at path is an ELF object of obj's class and machine,
// from its header alone.
func sameKind(path string, obj *elf.File) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [20]byte
	if _, err := f.ReadAt(h[:], 0); err != nil || string(h[:4]) != elf.ELFMAG {
		return false
	}
	machine := obj.ByteOrder.Uint16(h[18:])
	return elf.Class(h[elf.EI_CLASS]) == obj.Class && elf.Machine(machine) == obj.Machine
}

// dynamic returns the strings of obj's dynamic section that name libraries and their
// folders (DT_NEEDED, DT_RPATH, DT_RUNPATH), each read from the string table where it is:
// a program such as Node exports tens of thousands of symbols, whose names make the table
// megabytes long, which debug/elf's DynString would read whole.
func dynamic(obj *elf.File) map[elf.DynTag][]string {
	out := map[elf.DynTag][]string{}
	ds := obj.SectionByType(elf.SHT_DYNAMIC)
	if ds == nil || int(ds.Link) >= len(obj.Sections) {
		return out
	}
	data, err := ds.Data()
	if err != nil {
		return out
	}
	strs := obj.Sections[ds.Link]
	size := 16
	if obj.Class == elf.ELFCLASS32 {
		size = 8
	}
	for i := 0; i+size <= len(data); i += size {
		var tag elf.DynTag
		var val uint64
		if size == 16 {
			tag, val = elf.DynTag(obj.ByteOrder.Uint64(data[i:])), obj.ByteOrder.Uint64(data[i+8:])
		} else {
			tag, val = elf.DynTag(obj.ByteOrder.Uint32(data[i:])), uint64(obj.ByteOrder.Uint32(data[i+4:]))
		}
		if tag == elf.DT_NULL {
			break
		}
		if tag != elf.DT_NEEDED && tag != elf.DT_RPATH && tag != elf.DT_RUNPATH {
			continue
		}
		if s, ok := cString(strs, int64(val)); ok {
			out[tag] = append(out[tag], s)
		}
	}
	return out
}

// cString reads the NUL-terminated string at off in the section s.
func cString(s *elf.Section, off int64) (string, bool) {
	var b []byte
	buf := make([]byte, 256)
	for len(b) < 1<<16 {
		n, err := s.ReadAt(buf, off+int64(len(b)))
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			return string(append(b, buf[:i]...)), true
		}
		b = append(b, buf[:n]...)
		if err != nil || n == 0 {
			return "", false
		}
	}
	return "", false
}

// splitPaths splits DT_RPATH and DT_RUNPATH values into folders.
func splitPaths(vals []string) []string {
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
