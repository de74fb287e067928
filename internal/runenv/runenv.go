package runenv

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Intrinsic status values. A missing variable is 1 (the standard's value);
// a command-line argument that does not exist is a processor-dependent
// positive value, gfortran's 42.
const (
	StatusOK        = 0
	StatusTruncated = -1 // VALUE too short for the text
	StatusUnset     = 1  // GET_ENVIRONMENT_VARIABLE: the variable does not exist
	StatusNoArg     = 42 // GET_COMMAND_ARGUMENT: no argument of that number
)

// ProgramName is the command name (argument 0) of a program whose
// arguments are given: the name it is run by is not part of them.
const ProgramName = "program"

// Dummy argument names of the intrinsic subroutines, in order.
var (
	EnvironmentArgs = []string{"name", "value", "length", "status", "trim_name", "errmsg"}
	CommandArgs     = []string{"number", "value", "length", "status", "errmsg"}
)

// Actuals binds the actual arguments of a call of an intrinsic procedure
// to its dummies' names: by position up to the first keyword, then by
// keyword. Dummies without an actual are absent from the result.
func Actuals(args []apt.Expr, dummies []string) map[string]apt.Expr {
	out := map[string]apt.Expr{}
	for i, a := range args {
		if kw, ok := a.(*apt.Keyword); ok {
			out[kw.Name] = kw.Value
		} else if i < len(dummies) {
			out[dummies[i]] = a
		}
	}
	return out
}

// Result is what one of the intrinsic subroutines assigns: VALUE (the
// text fitted to VALUE's length: blank padded or truncated), LENGTH and
// STATUS.
type Result struct {
	Value  string
	Length int64
	Status int64
}

// result fits text, found or not, to a VALUE of valueLen characters
// (valueLen < 0: a length not known, the text as it is).
func result(text string, found bool, valueLen int64, missing int64) Result {
	if !found {
		return Result{Value: blanks(valueLen), Status: missing}
	}
	r := Result{Value: text, Length: int64(len(text))}
	if valueLen >= 0 {
		if int64(len(text)) > valueLen {
			r.Value, r.Status = text[:valueLen], StatusTruncated
		} else {
			r.Value = text + blanks(valueLen-int64(len(text)))
		}
	}
	return r
}

func blanks(n int64) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", int(n))
}

// Variable is GET_ENVIRONMENT_VARIABLE(name, VALUE, LENGTH, STATUS,
// trimName) in the environment env, VALUE having valueLen characters. A
// variable env does not set does not exist: STATUS 1, LENGTH 0 and VALUE
// blank. The name's trailing blanks are not significant unless trimName is
// false.
func Variable(env map[string]string, name string, trimName bool, valueLen int64) Result {
	if trimName {
		name = strings.TrimRight(name, " ")
	}
	text, found := env[name]
	return result(text, found, valueLen, StatusUnset)
}

// ArgumentCount is COMMAND_ARGUMENT_COUNT() for the arguments args.
func ArgumentCount(args []string) int64 { return int64(len(args)) }

// Argument is GET_COMMAND_ARGUMENT(number, VALUE, LENGTH, STATUS) for the
// arguments args, VALUE having valueLen characters: argument 0 is the
// command's name (ProgramName), 1..len(args) the arguments; any other
// number fails (VALUE blank, LENGTH 0).
func Argument(args []string, number int64, valueLen int64) Result {
	switch {
	case number == 0:
		return result(ProgramName, true, valueLen, StatusNoArg)
	case number < 0 || number > int64(len(args)):
		return result("", false, valueLen, StatusNoArg)
	}
	return result(args[number-1], true, valueLen, StatusNoArg)
}

// ListValues splits a record of list-directed input into its values
// (Fortran 2008 10.10.3): separated by a comma or by blanks, r*c standing
// for r copies of c, a slash ending the input. A null value (a comma with
// no value before it, or r*) is returned as "" and leaves its item
// unchanged; a quoted character constant is returned without its quotes.
func ListValues(rec string) []string {
	out, _ := ListRecord(rec)
	return out
}

// ListRecord is ListValues, and whether a slash ended the input within
// the record: a READ then takes no more values, from this record or the
// next, and leaves its remaining items unchanged.
func ListRecord(rec string) (vals []string, slash bool) {
	vals, slash, _ = listRecord(rec, true)
	return vals, slash
}

// listRecord splits one record; open says whether a value may follow with
// no separator before it (the start of the input, or after a comma), and
// the result whether that holds at the record's end. The end of a record
// is a blank (Fortran 2008 10.10.2): a record that ends with a value and a
// next one that starts with a comma make one separator, not a null value.
func listRecord(rec string, open bool) (vals []string, slash, openAtEnd bool) {
	var out []string
	i, n := 0, len(rec)
	blank := func() {
		for i < n && (rec[i] == ' ' || rec[i] == '\t') {
			i++
		}
	}
	separator := func(c byte) bool { return c == ' ' || c == '\t' || c == ',' || c == '/' }
	blank()
	for i < n && rec[i] != '/' {
		if rec[i] == ',' {
			if open {
				out = append(out, "")
			}
			open = true
			i++
			blank()
			continue
		}
		// r*: a repeat count.
		rep := int64(1)
		j := i
		for j < n && rec[j] >= '0' && rec[j] <= '9' {
			j++
		}
		if j > i && j < n && rec[j] == '*' {
			if r, err := strconv.ParseInt(rec[i:j], 10, 64); err == nil && r > 0 {
				rep, i = r, j+1
			}
		}
		var tok string
		switch {
		case i >= n || separator(rec[i]):
			// r* alone: r null values.
		case rec[i] == '\'' || rec[i] == '"':
			q := rec[i]
			var b strings.Builder
			for i++; i < n; i++ {
				if rec[i] == q {
					if i+1 < n && rec[i+1] == q {
						// A doubled quote stands for one.
						b.WriteByte(q)
						i++
						continue
					}
					i++
					break
				}
				b.WriteByte(rec[i])
			}
			tok = b.String()
		default:
			j := i
			for j < n && !separator(rec[j]) {
				j++
			}
			tok, i = rec[i:j], j
		}
		for range min(rep, maxRepeat) {
			out = append(out, tok)
		}
		open = false
		blank()
	}
	return out, i < n && rec[i] == '/', open
}

// maxRepeat bounds the copies an r*c value makes.
const maxRepeat = 1 << 16

// Real reads a real value of list-directed input exactly: an optional
// sign, digits with an optional decimal point, and an optional exponent
// after E, D or Q (Fortran 2008 10.7.2.3.2); an integer is a real too.
func Real(s string) (*big.Rat, bool) {
	m := realLiteral.FindStringSubmatch(s)
	if m == nil || m[2] == "" && m[3] == "" {
		return nil, false
	}
	mant := m[1] + "0" + m[2]
	if m[3] != "" {
		mant += "." + m[3]
	}
	if m[4] != "" {
		exp, err := strconv.ParseInt(m[4], 10, 32)
		if err != nil || exp < -400 || exp > 400 {
			return nil, false
		}
		mant += "e" + strconv.FormatInt(exp, 10)
	}
	r, ok := new(big.Rat).SetString(mant)
	return r, ok
}

// realLiteral is a list-directed real: sign, whole digits, fraction digits,
// exponent (the letter's case and kind do not matter).
var realLiteral = regexp.MustCompile(`^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eEdDqQ]([+-]?[0-9]+))?$`)

// Logical reads a logical value of list-directed input: an optional
// period, then T or F, then any characters (.TRUE., T, .false.).
func Logical(s string) (bool, bool) {
	t := strings.TrimPrefix(s, ".")
	if t == "" {
		return false, false
	}
	switch t[0] {
	case 'T', 't':
		return true, true
	case 'F', 'f':
		return false, true
	}
	return false, false
}

// Integer reads an integer value of list-directed input (an optional sign
// and digits).
func Integer(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	return n, err == nil
}

// Datum is one value of list-directed input and the record it is on (from
// 1); Text is "" for a null value.
type Datum struct {
	Text   string
	Record int
}

// ListRead is what one list-directed READ of want items takes from the
// records of a file, starting at record from (1-based): values from that
// record and the ones after it until want values are read or a slash ends
// the input (Fortran 2008 10.10.3), and the record the next READ starts
// at. Fewer than want values means the items after them keep their values
// (a slash); ok is false when the file ends first, the end-of-file
// condition of the run.
func ListRead(recs []string, from, want int) (vals []Datum, next int, ok bool) {
	rec := from
	open := true
	// Every READ reads a record, one with no items too (it skips it).
	for first := true; first || len(vals) < want; first = false {
		if rec < 1 || rec > len(recs) {
			return nil, rec, false
		}
		words, slash, o := listRecord(recs[rec-1], open)
		open = o
		for _, w := range words {
			vals = append(vals, Datum{w, rec})
		}
		rec++
		if slash {
			break
		}
	}
	return vals, rec, true
}

// StreamRead reads want blank-separated words from records recs (from 1)
// as C's scanf does: from word word of record rec on, across records, the
// position left after the last word read where the next read goes on. ok
// is false when the text ends first (vals then holds what was read).
func StreamRead(recs []string, rec, word, want int) (vals []Datum, nextRec, nextWord int, ok bool) {
	for len(vals) < want {
		if rec < 1 || rec > len(recs) {
			return vals, rec, word, false // the input ends: what was read
		}
		words := strings.Fields(recs[rec-1])
		for word < len(words) && len(vals) < want {
			vals = append(vals, Datum{words[word], rec})
			word++
		}
		if len(vals) < want {
			rec, word = rec+1, 0
		}
	}
	return vals, rec, word, true
}

// Records splits a text file into its records (lines, without their end).
func Records(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
