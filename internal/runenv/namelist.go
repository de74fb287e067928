package runenv

import (
	"regexp"
	"strings"
)

// NamelistItem is one name-value subsequence of namelist input: the object
// as written (lower case, with its subscripts or components) and its
// values, list-directed (a null value is "").
type NamelistItem struct {
	Name   string
	Values []string
	Record int // the record the name is on, from 1
}

// designator matches the start of a name-value subsequence: a name, its
// subscripts or components, and the equals sign.
var designator = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*(?:\s*\([^)=]*\))?(?:\s*%\s*[A-Za-z][A-Za-z0-9_]*(?:\s*\([^)=]*\))?)*)\s*=`)

// NamelistRead is what one namelist READ of group takes from the records
// of a file, starting at record from (Fortran 2008 10.11.3): the records
// before the one that starts with &group (or $group, in any case) are
// skipped; then name = values subsequences, over as many records as they
// take (the end of a record is a blank, a '!' starts a comment), until a
// slash or &end. It returns the subsequences in order and the record the
// next READ starts at; ok is false when the file ends first or the input
// is not namelist input.
func NamelistRead(recs []string, from int, group string) (items []NamelistItem, next int, ok bool) {
	group = strings.ToLower(group)
	rec := from
	col := -1
	for ; rec >= 1 && rec <= len(recs); rec++ {
		t := strings.TrimLeft(recs[rec-1], " \t")
		if len(t) < 2 || (t[0] != '&' && t[0] != '$') {
			continue
		}
		name := t[1:]
		end := strings.IndexFunc(name, func(r rune) bool { return r == ' ' || r == '\t' || r == '/' || r == ',' })
		if end < 0 {
			end = len(name)
		}
		if strings.ToLower(name[:end]) == group {
			col = len(recs[rec-1]) - len(t) + 1 + end
			break
		}
	}
	if col < 0 {
		return nil, rec, false
	}
	// The input from the group's name on, one string, each record's end a
	// blank; recAt maps an offset back to its record.
	var text strings.Builder
	var starts []int
	for r := rec; r <= len(recs); r++ {
		line := recs[r-1]
		if r == rec {
			line = strings.Repeat(" ", col) + line[col:]
		}
		starts = append(starts, text.Len())
		text.WriteString(stripComment(line))
		text.WriteByte(' ')
	}
	recAt := func(off int) int {
		r := 0
		for i, s := range starts {
			if s <= off {
				r = i
			}
		}
		return rec + r
	}
	s := text.String()
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++
		}
	}
	for {
		skip()
		if i >= len(s) {
			return nil, len(recs) + 1, false // no slash: the end of the file
		}
		if s[i] == '/' {
			return items, recAt(i) + 1, true
		}
		if rest := strings.ToLower(s[i:]); (rest[0] == '&' || rest[0] == '$') && strings.HasPrefix(rest[1:], "end") {
			return items, recAt(i) + 1, true
		}
		m := designator.FindStringSubmatch(s[i:])
		if m == nil {
			return nil, rec, false
		}
		it := NamelistItem{Name: strings.ToLower(strings.Join(strings.Fields(m[1]), "")), Record: recAt(i)}
		i += len(m[0])
		// The values run to the next name = , a slash or &end.
		j := i
		for j < len(s) {
			c := s[j]
			switch {
			case c == '\'' || c == '"':
				k := strings.IndexByte(s[j+1:], c)
				if k < 0 {
					return nil, rec, false
				}
				j += k + 2
				continue
			case c == '/' || c == '&' || c == '$':
			case (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') && (j == i || strings.ContainsRune(" \t,", rune(s[j-1]))) &&
				designator.MatchString(s[j:]):
			default:
				j++
				continue
			}
			break
		}
		it.Values, _ = ListRecord(s[i:j])
		items = append(items, it)
		i = j
	}
}

// stripComment is a record of namelist input without its comment: from a
// '!' outside a character constant to the end.
func stripComment(line string) string {
	var q byte
	for k := 0; k < len(line); k++ {
		switch c := line[k]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '!':
			return line[:k]
		}
	}
	return line
}
