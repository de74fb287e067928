package instrument

import (
	"path/filepath"

	"github.com/mkvet/mkvet/frontend/apt"
)

// moduleOrder returns the files in an order a compiler given them on one
// command line accepts: a file that defines a module before every file
// that uses it (gfortran reads a module's .mod file, which compiling the
// module writes), placed right before the first file that needs it, the
// others in their given order. Makefiles list
// objects in any order, their rules carry the dependencies; the build of
// the instrumented copy compiles the files in one command. A cycle (not
// legal Fortran) leaves the files of the cycle in their given order.
func moduleOrder(prog *apt.Program, files []*sourceFile) []*sourceFile {
	key := func(p string) string {
		abs, err := filepath.Abs(p)
		if err != nil {
			return filepath.Clean(p)
		}
		return abs
	}
	defines := map[string]string{} // module name -> the file defining it
	for _, r := range prog.Routines {
		if r.Kind == apt.KindModule {
			defines[r.Name] = key(r.Span.Start().File)
		}
	}
	needs := map[string]map[string]bool{} // file -> the files whose modules it uses
	var visit func(r *apt.Routine, file string)
	visit = func(r *apt.Routine, file string) {
		if r.Scope != nil {
			for _, u := range r.Scope.Uses {
				if d, ok := defines[u.Module]; ok && d != file {
					if needs[file] == nil {
						needs[file] = map[string]bool{}
					}
					needs[file][d] = true
				}
			}
		}
		for _, c := range r.Contains {
			visit(c, file)
		}
	}
	for _, r := range prog.Routines {
		visit(r, key(r.Span.Start().File))
	}
	byKey := map[string]*sourceFile{}
	for _, f := range files {
		byKey[key(f.path)] = f
	}
	var out []*sourceFile
	state := map[*sourceFile]int{} // 1 visiting, 2 placed
	var place func(f *sourceFile)
	place = func(f *sourceFile) {
		if state[f] != 0 {
			return
		}
		state[f] = 1
		for _, g := range files { // in the given order, for a stable result
			if needs[key(f.path)][key(g.path)] {
				place(byKey[key(g.path)])
			}
		}
		state[f] = 2
		out = append(out, f)
	}
	for _, f := range files {
		place(f)
	}
	return out
}
