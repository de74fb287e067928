package fortran

import "bytes"

// looksFree reports whether text that its file's extension says is fixed
// form is free form: more of its lines put a statement where fixed form
// cannot have one (a letter in the label field, columns 1-5, other than a
// comment's C or * or a debug line's D in column 1; a line continued by a
// trailing &) than put a continuation mark in column 6. Lines a tab
// starts (the tab form of fixed form), comments, blank lines and
// preprocessor lines say nothing.
func looksFree(src []byte) bool {
	free, fixed := 0, 0
	for line := range bytes.SplitSeq(src, []byte("\n")) {
		line = bytes.TrimRight(line, "\r")
		k := 0
		for k < len(line) && line[k] == ' ' {
			k++
		}
		if k == len(line) || line[k] == '\t' || line[k] == '!' || line[0] == '#' {
			continue
		}
		c := line[k]
		letter := c|0x20 >= 'a' && c|0x20 <= 'z'
		switch {
		case k == 0 && (c == '*' || c|0x20 == 'c' || c|0x20 == 'd'):
			// A comment or debug line in fixed form; in free form a
			// statement (call, contains, do): neither says which.
			if c == '*' {
				fixed++
			}
			continue
		case k < 5 && letter:
			free++
			continue
		case k == 5 && c != '0' && !letter:
			fixed++ // a continuation mark
			continue
		}
		if code := bytes.TrimRight(line, " "); k >= 6 && len(code) > 0 && code[len(code)-1] == '&' && !bytes.Contains(code, []byte("!")) {
			free++
		}
	}
	return free > fixed
}
