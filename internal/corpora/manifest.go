package corpora

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
)

//go:embed manifest.json
var manifestJSON []byte

// Program is one entry of the manifest: a real program in the corpora, as
// a user builds and runs it. manifest.json's _doc says what each field
// holds; adding a program to the measurements is adding an entry there.
type Program struct {
	Name string `json:"name"`
	// Set is "given" for the programs mkvet was developed on and "shown"
	// for those it was measured on afterwards.
	Set      string `json:"set"`
	Folder   string `json:"folder"`
	Language string `json:"language"` // fortran, c or c++
	// Prepare runs once in a private copy's top folder; Configure in Cwd,
	// with {P} and {class} replaced, before each analysis or build.
	Prepare   []string `json:"prepare,omitempty"`
	Cwd       string   `json:"cwd"`
	Configure string   `json:"configure,omitempty"`
	Class     string   `json:"class,omitempty"`
	Files     FileList `json:"files"`
	Link      FileList `json:"link"`
	Defines   []string `json:"defines,omitempty"`
	Args      string   `json:"args,omitempty"`
	Deck      string   `json:"deck,omitempty"`
	// DeckTemplate is a deck of the program's own (relative to Cwd) that
	// tests start their decks from.
	DeckTemplate string   `json:"deck_template,omitempty"`
	P            int      `json:"P"`
	Procs        []int    `json:"procs"`
	Counters     Counters `json:"counters"`
}

// Counters is how a build of the program with mkvet's counters is made:
// Prepare runs in the copy's Cwd ({link} the link sources); Build is the
// -build template of calibrate and of instrument's sweeps ({srcs} the
// instrumented sources, {exe} the program, {dir} the copy's Cwd,
// {linkobjs} the objects of the link sources).
type Counters struct {
	Prepare []string `json:"prepare,omitempty"`
	Build   string   `json:"build,omitempty"`
}

// FileList says how a program's sources are listed, in order: the words
// of Makefile variables (MakeVars) or the sources a rule's recipe names
// (MakeRule), then the matches of Glob patterns, then Add.
type FileList struct {
	Makefile string   `json:"makefile,omitempty"` // relative to Cwd; default Makefile
	MakeVars []string `json:"make_vars,omitempty"`
	MakeRule string   `json:"make_rule,omitempty"`
	// Subst gives make variables in the words their values; Dirs the
	// folder (relative to Cwd) a variable's objects are in; MakeRules a
	// makefile whose one-prerequisite object rules name an object's
	// source; Ext the source extensions an object is tried with, in order
	// (a word that is not an object is kept when it has one of them).
	Subst     map[string]string `json:"subst,omitempty"`
	Dirs      map[string]string `json:"dirs,omitempty"`
	MakeRules string            `json:"make_rules,omitempty"`
	Ext       []string          `json:"ext,omitempty"`
	Glob      []string          `json:"glob,omitempty"`
	Add       []string          `json:"add,omitempty"`
}

var (
	manifestOnce sync.Once
	manifest     []Program
	manifestErr  error
)

// Manifest returns the programs of the manifest in its order.
func Manifest() ([]Program, error) {
	manifestOnce.Do(func() {
		var m struct {
			Programs []Program `json:"programs"`
		}
		if err := json.Unmarshal(manifestJSON, &m); err != nil {
			manifestErr = fmt.Errorf("manifest.json: %v", err)
			return
		}
		seen := map[string]bool{}
		for _, p := range m.Programs {
			if p.Name == "" || p.Folder == "" || p.P < 1 || seen[p.Name] {
				manifestErr = fmt.Errorf("manifest.json: entry %q: a name of its own, a folder and P are required", p.Name)
				return
			}
			seen[p.Name] = true
		}
		manifest = m.Programs
	})
	return manifest, manifestErr
}

// ProcsEnds is the least and the largest of the process counts the
// program runs at (one where they are one): what the oracles that repeat
// another's process counts run at.
func (p Program) ProcsEnds() []int {
	if len(p.Procs) == 0 {
		return nil
	}
	lo, hi := slices.Min(p.Procs), slices.Max(p.Procs)
	if lo == hi {
		return []int{lo}
	}
	return []int{lo, hi}
}

// Find returns the manifest's entry named name.
func Find(name string) (Program, error) {
	progs, err := Manifest()
	if err != nil {
		return Program{}, err
	}
	for _, p := range progs {
		if p.Name == name {
			return p, nil
		}
	}
	return Program{}, fmt.Errorf("the manifest has no program %q", name)
}

// Select returns the manifest's entries that keep accepts, in order.
func Select(keep func(Program) bool) ([]Program, error) {
	progs, err := Manifest()
	if err != nil {
		return nil, err
	}
	var out []Program
	for _, p := range progs {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Bench is the program's name within its suite: the folder it runs in
// (NPB's LU) or, for a program run from its top folder, its name.
func (p Program) Bench() string {
	if p.Cwd != "" && p.Cwd != "." {
		return filepath.Base(p.Cwd)
	}
	return p.Name
}

// list returns the sources fl names, as paths under cwd.
func (fl FileList) list(cwd string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		f = filepath.Clean(filepath.Join(cwd, f))
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	if len(fl.MakeVars) > 0 || fl.MakeRule != "" {
		mkName := fl.Makefile
		if mkName == "" {
			mkName = "Makefile"
		}
		mk, err := os.ReadFile(filepath.Join(cwd, mkName))
		if err != nil {
			return nil, err
		}
		words, err := fl.makeWords(string(mk), filepath.Join(cwd, mkName))
		if err != nil {
			return nil, err
		}
		rules, err := fl.objectRules(cwd)
		if err != nil {
			return nil, err
		}
		for _, w := range words {
			f, err := fl.source(cwd, w, rules)
			if err != nil {
				return nil, fmt.Errorf("%s lists %s: %v", filepath.Join(cwd, mkName), w.word, err)
			}
			if f != "" {
				add(f)
			}
		}
	}
	for _, g := range fl.Glob {
		ms, err := filepath.Glob(filepath.Join(cwd, g))
		if err != nil {
			return nil, err
		}
		slices.Sort(ms)
		for _, m := range ms {
			rel, _ := filepath.Rel(cwd, m)
			add(rel)
		}
	}
	for _, f := range fl.Add {
		if _, err := os.Stat(filepath.Join(cwd, f)); err != nil {
			return nil, err
		}
		add(f)
	}
	return out, nil
}

// makeWord is a word of a Makefile list and the folder its variable's
// objects are in; recipe marks a word of a rule's recipe, where only
// sources count (an object there is one the recipe writes or links).
type makeWord struct {
	word, dir string
	recipe    bool
}

var makeWordRE = regexp.MustCompile(`[\w${}()/.+-]+`)

// makeWords returns the words of fl's Makefile variables (a definition
// with its continuation lines) or of its rule's recipe (up to the first
// blank line), with Subst applied.
func (fl FileList) makeWords(mk, name string) ([]makeWord, error) {
	lines := strings.Split(mk, "\n")
	var out []makeWord
	r := fl.replacer()
	words := func(text, dir string, recipe bool) {
		for _, w := range makeWordRE.FindAllString(text, -1) {
			out = append(out, makeWord{r.Replace(w), dir, recipe})
		}
	}
	for _, v := range fl.MakeVars {
		def := regexp.MustCompile(`^\s*` + regexp.QuoteMeta(v) + `\s*[:+]?=(.*)$`)
		found := false
		for i := 0; i < len(lines); i++ {
			m := def.FindStringSubmatch(lines[i])
			if m == nil {
				continue
			}
			found = true
			text := m[1]
			for strings.HasSuffix(strings.TrimSpace(text), "\\") && i+1 < len(lines) {
				text = strings.TrimSuffix(strings.TrimSpace(text), "\\") + " "
				i++
				text += lines[i]
			}
			words(text, fl.Dirs[v], false)
		}
		if !found {
			return nil, fmt.Errorf("%s defines no %s", name, v)
		}
	}
	if fl.MakeRule != "" {
		head := regexp.MustCompile(`^` + regexp.QuoteMeta(fl.MakeRule) + `\s*:`)
		start := slices.IndexFunc(lines, head.MatchString)
		if start < 0 {
			return nil, fmt.Errorf("%s has no rule %s", name, fl.MakeRule)
		}
		for _, l := range lines[start+1:] {
			if strings.TrimSpace(l) == "" {
				break
			}
			words(l, "", true)
		}
	}
	return out, nil
}

func (fl FileList) replacer() *strings.Replacer {
	var pairs []string
	for k, v := range fl.Subst {
		pairs = append(pairs, k, v)
	}
	return strings.NewReplacer(pairs...)
}

// objectRules reads the one-prerequisite object rules of fl.MakeRules
// (target.o: source), with Subst applied.
func (fl FileList) objectRules(cwd string) (map[string]string, error) {
	rules := map[string]string{}
	if fl.MakeRules == "" {
		return rules, nil
	}
	mc, err := os.ReadFile(filepath.Join(cwd, fl.MakeRules))
	if err != nil {
		return nil, err
	}
	r := fl.replacer()
	for _, line := range strings.Split(string(mc), "\n") {
		target, prereq, ok := strings.Cut(line, ":")
		fields := strings.Fields(prereq)
		if ok && strings.HasSuffix(strings.TrimSpace(target), ".o") && len(fields) == 1 {
			rules[r.Replace(strings.TrimSpace(target))] = r.Replace(fields[0])
		}
	}
	return rules, nil
}

// source returns the source file of a list's word relative to cwd: an
// object's source by its rule or by the first of Ext that exists, a word
// with an extension of Ext itself, and "" for any other word (a flag or a
// compiler in a recipe).
func (fl FileList) source(cwd string, w makeWord, rules map[string]string) (string, error) {
	word := w.word
	if w.dir != "" {
		word = filepath.Join(w.dir, word)
	}
	if strings.HasSuffix(word, ".o") && !w.recipe {
		if src, ok := rules[w.word]; ok {
			return src, nil
		}
		base := strings.TrimSuffix(word, ".o")
		for _, ext := range fl.Ext {
			if _, err := os.Stat(filepath.Join(cwd, base+ext)); err == nil {
				return base + ext, nil
			}
		}
		return "", fmt.Errorf("no source %s.{%s}", base, strings.Join(fl.Ext, ","))
	}
	if slices.Contains(fl.Ext, filepath.Ext(word)) {
		if _, err := os.Stat(filepath.Join(cwd, word)); err != nil {
			return "", err
		}
		return word, nil
	}
	return "", nil
}
