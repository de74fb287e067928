package apt

import (
	"strconv"
	"strings"
)

// LongOption is an entry of a C program's getopt_long table (struct
// option). The C frontend passes a constant table to the evaluation as
// the text FormatLongOptions writes, in place of the table's address: one
// line per option, its fields separated by tabs.
type LongOption struct {
	Name   string
	HasArg int64  // no_argument 0, required_argument 1, optional_argument 2
	Flag   string // the variable flag points to, "" for NULL
	Val    int64
}

// FormatLongOptions writes a table as text.
func FormatLongOptions(opts []LongOption) string {
	var b strings.Builder
	for _, o := range opts {
		b.WriteString(strings.Join([]string{o.Name, strconv.FormatInt(o.HasArg, 10), o.Flag, strconv.FormatInt(o.Val, 10)}, "\t"))
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseLongOptions reads a table FormatLongOptions wrote.
func ParseLongOptions(text string) ([]LongOption, bool) {
	out := []LongOption{}
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, false
		}
		has, err1 := strconv.ParseInt(f[1], 10, 64)
		val, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		out = append(out, LongOption{Name: f[0], HasArg: has, Flag: f[2], Val: val})
	}
	return out, true
}
