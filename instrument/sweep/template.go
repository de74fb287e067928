package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// An InputFile is a file each run reads from its working directory (an
// input deck such as CloverLeaf's clover.in), written from a template with
// the run's values before the launcher starts: {name} for every size, {P},
// {exe} and {dir}; {{ and }} stand for literal braces.
type InputFile struct {
	// Name is where the run finds the file, relative to its directory.
	Name string
	// Template is the template's text; Source names it in messages (the
	// template file's path).
	Template, Source string
}

// ParseInputFile reads a -file flag, NAME=TEMPLATE: the template is the
// file at path TEMPLATE, and NAME must stay inside the run's directory.
func ParseInputFile(spec string) (InputFile, error) {
	name, path, ok := strings.Cut(spec, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(path) == "" {
		return InputFile{}, fmt.Errorf("%q: want NAME=TEMPLATE, e.g. clover.in=clover.in.tmpl", spec)
	}
	name, path = strings.TrimSpace(name), strings.TrimSpace(path)
	if !filepath.IsLocal(name) { // not absolute, not above the directory
		return InputFile{}, fmt.Errorf("%s: the file a run reads must be a path inside its directory, like clover.in", name)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return InputFile{}, err
	}
	return InputFile{Name: filepath.Clean(name), Template: string(b), Source: path}, nil
}

// write expands f with vars into dir.
func (f InputFile) write(dir string, vars map[string][]string) error {
	text, err := ExpandTemplate(f.Source, f.Template, vars)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, f.Name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// A TemplateError is a mistake in a template, at a line and column (bytes,
// from 1) of the template named Source.
type TemplateError struct {
	Source    string
	Line, Col int
	Msg       string
}

func (e *TemplateError) Error() string {
	return e.Source + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// ExpandTemplate substitutes the {name} placeholders of a file template
// (source names it in errors) with vars; {{ and }} are literal braces, and
// text outside placeholders is kept byte for byte. A placeholder must have
// one value (several are joined by blanks, as in a command line). Unlike a
// command line's expandText, which keeps a lone } as it is, a template has
// escapes for braces and says where a mistake is: it is a file the user
// edits, often long.
func ExpandTemplate(source, text string, vars map[string][]string) (string, error) {
	var b strings.Builder
	line, col := 1, 1
	fail := func(l, c int, format string, args ...any) error {
		return &TemplateError{Source: source, Line: l, Col: c, Msg: fmt.Sprintf(format, args...)}
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '{' && strings.HasPrefix(text[i:], "{{"), c == '}' && strings.HasPrefix(text[i:], "}}"):
			b.WriteByte(c)
			i += 2
			col += 2
			continue
		case c == '}':
			return "", fail(line, col, "a lone } (write }} for a brace)")
		case c == '{':
			end := strings.IndexAny(text[i+1:], "{}\n")
			if end < 0 || text[i+1+end] != '}' {
				return "", fail(line, col, "unclosed { (write {{ for a brace)")
			}
			name := text[i+1 : i+1+end]
			if strings.TrimSpace(name) == "" {
				return "", fail(line, col, "empty placeholder {}")
			}
			vs, err := lookup(vars, name)
			if err != nil {
				return "", fail(line, col, "%v", err)
			}
			b.WriteString(strings.Join(vs, " "))
			i += end + 2
			col += end + 2
			continue
		}
		b.WriteByte(c)
		i++
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return b.String(), nil
}
