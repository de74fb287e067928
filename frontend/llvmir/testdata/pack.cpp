// A C++ program whose standard-library calls instantiate variadic
// templates (std::map's emplace with a parameter pack): the pack's
// elements are formals of one source name.
#include <map>
#include <string>
#include <tuple>

template <typename... Args>
static int sum(Args... args) {
	return (args + ... + 0);
}

int main() {
	std::map<int, int> m;
	for (int i = 0; i < 10; i++)
		m[i] = sum(i, i, 2 * i);
	std::map<std::string, int> n;
	n.emplace(std::piecewise_construct, std::forward_as_tuple("a"), std::forward_as_tuple(1));
	return m[3] + n["a"] == 0;
}
