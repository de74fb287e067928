package llvmir

import (
	"os/exec"
	"testing"
)

func TestShortName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"std::vector<int, std::allocator<int> >::push_back(int const&)", "std::vector::push_back"},
		{"std::basic_istream<char, std::char_traits<char> >::operator>>(int&)", "std::basic_istream::operator>>"},
		{"std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
			"std::operator<<"},
		{"Foo::operator new(unsigned long)", "Foo::operator new"},
		{"int* std::copy<int*, int*>(int*, int*, int*)", "std::copy"},
		{"Grid::step()", "Grid::step"},
		{"ns::Op::operator()(double)", "ns::Op::operator()"},
		{"main", "main"},
	} {
		if got := shortName(tc.in); got != tc.want {
			t.Errorf("shortName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDemangle checks the names against llvm-cxxfilt-14's own output.
func TestDemangle(t *testing.T) {
	if _, err := exec.LookPath("llvm-cxxfilt-14"); err != nil {
		t.Skip("llvm-cxxfilt-14 not installed (Debian llvm-14): C++ symbols are shown mangled")
	}
	got := demangle([]string{"_ZNSirsERi", "_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode", "fgets"})
	want := map[string]string{
		"_ZNSirsERi": "std::istream::operator>>",
		"_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode": "std::basic_ifstream::basic_ifstream",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("demangle %s = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := got["fgets"]; ok {
		t.Errorf("a C name was renamed: %q", got["fgets"])
	}
}
