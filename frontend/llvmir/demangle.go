package llvmir

import (
	"os/exec"
	"strings"
)

// demangle returns the C++ names of Itanium-mangled symbols (_Z...) as
// llvm-cxxfilt-14 spells them, shortened to the qualified name
// (std::basic_istream::operator>>, without template arguments and
// parameters), for messages about calls of routines that are not part of
// the program. Without the tool it returns nothing: the symbols are then
// shown as they are.
func demangle(syms []string) map[string]string {
	if len(syms) == 0 {
		return nil
	}
	cmd := exec.Command(tool("", "MKVET_CXXFILT", "llvm-cxxfilt-14"))
	cmd.Stdin = strings.NewReader(strings.Join(syms, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(syms) {
		return nil
	}
	names := make(map[string]string, len(syms))
	for i, s := range syms {
		if n := shortName(lines[i]); n != "" && n != s {
			names[s] = n
		}
	}
	return names
}

// shortName drops a demangled name's return type, template arguments and
// parameter list: "std::vector<int>::push_back(int const&)" is
// "std::vector::push_back", "std::ostream& std::operator<< <...>(...)" is
// "std::operator<<".
func shortName(d string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(d); i++ {
		c := d[i]
		if depth == 0 && strings.HasPrefix(d[i:], "operator") {
			// The operator's own symbol: punctuation (<<, (), [], ->),
			// else a word (new, delete, a conversion's type).
			j := i + len("operator")
			switch {
			case strings.HasPrefix(d[j:], "()"):
				j += 2
			case j < len(d) && strings.ContainsRune("<>=!+-*/%&|^~[],", rune(d[j])):
				for j < len(d) && strings.ContainsRune("<>=!+-*/%&|^~[],", rune(d[j])) {
					j++
				}
			default:
				for j < len(d) && d[j] != '(' && d[j] != '<' {
					j++
				}
			}
			b.WriteString(d[i:j])
			i = j - 1
			continue
		}
		switch c {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth == 0 {
				return dropReturnType(b.String())
			}
		default:
			if depth == 0 {
				b.WriteByte(c)
			}
		}
	}
	return dropReturnType(b.String())
}

// dropReturnType keeps what follows the last space that does not belong
// to an operator's name (operator new, operator bool).
func dropReturnType(s string) string {
	s = strings.TrimSpace(s)
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == ' ' && !strings.HasSuffix(s[:i], "operator") {
			return s[i+1:]
		}
	}
	return s
}
