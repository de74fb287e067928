package symbolic_test

import (
	"fmt"

	"github.com/mkvet/mkvet/symbolic"
)

func ExampleParse() {
	a := symbolic.MustParse("N*(P+1)")
	b := symbolic.MustParse("N*P + N")
	fmt.Println(a, "|", a.Equal(b))
	fmt.Println(symbolic.MustParse("2*N/4"))
	fmt.Println(symbolic.MustParse("mod(k*P, P)"))
	// Output:
	// N*P + N | true
	// N/2
	// 0
}

func ExampleExpr_Format() {
	e := symbolic.MustParse("N*N/P + 2*log2(P) + ceil(N/P)")
	fmt.Println(e.Format(symbolic.Math))
	fmt.Println(e.Format(symbolic.Fortran))
	fmt.Println(e.Format(symbolic.Go))
	// Output:
	// N^2/P + ceil(N/P) + 2*log2(P)
	// N**2/P + real(ceiling(N/P, 8), 8) + 2d0*(log(P)/log(2d0))
	// N*N/P + math.Ceil(N/P) + 2*math.Log2(P)
}

func ExampleExpr_Eval() {
	e := symbolic.MustParse("N*N/P + floor(N/P)")
	v, err := e.Eval(map[string]symbolic.Rat{"N": symbolic.RatInt(1000), "P": symbolic.RatInt(3)})
	fmt.Println(v, err)
	// Output: 1000999/3 <nil>
}

func ExampleExpr_Compile() {
	e := symbolic.MustParse("N*(N+1)/2 - P*floor(N/P)")
	f, err := e.Compile([]string{"N", "P"})
	if err != nil {
		panic(err)
	}
	for _, n := range []int64{10, 11} {
		v, _ := f.EvalInt([]int64{n, 4})
		fmt.Println(n, v)
	}
	// Output:
	// 10 47
	// 11 58
}

func ExampleExpr_Diff() {
	// MK's optimal grain size: T(K) = (N/K)*ts + K*tc has dT/dK = 0 at K = sqrt(N*ts/tc).
	T := symbolic.MustParse("N/K*ts + K*tc")
	d, _ := T.Diff("K")
	fmt.Println(d)
	// Output: tc - N*ts/K^2
}

func ExampleExpr_Subst() {
	e := symbolic.MustParse("floor((N - 1)/P) + modulo(N - 1, P)")
	v, _ := e.Subst(map[string]symbolic.Expr{"N": symbolic.MustParse("2*P + 1")})
	fmt.Println(v)
	// Output: 2
}

func ExampleAssumptions_Prove() {
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("N >= P, P >= 1, 0 <= me <= P-1"); err != nil {
		panic(err)
	}
	for _, s := range []string{"N - me >= 1", "P*ceil(N/P) >= N", "me >= P", "N >= 2*P"} {
		r, _ := symbolic.ParseRelations(s)
		fmt.Println(s, "->", a.Prove(r[0]))
	}
	// Output:
	// N - me >= 1 -> true
	// P*ceil(N/P) >= N -> true
	// me >= P -> false
	// N >= 2*P -> unknown
}

func ExampleAssumptions_Simplify() {
	a := symbolic.NewAssumptions()
	a.AssumeText("N >= 0, P >= 1")
	fmt.Println(symbolic.MustParse("mod(N, P)"))
	fmt.Println(a.Simplify(symbolic.MustParse("mod(N, P)")))
	fmt.Println(a.Simplify(symbolic.MustParse("N/P - mod(N, P)/P")))
	// Output:
	// mod(N, P)
	// modulo(N, P)
	// floor(N/P)
}

func ExamplePiecewise() {
	n := symbolic.Sym("n")
	pw := symbolic.Piecewise{Pieces: []symbolic.Piece{
		{Guard: []symbolic.Relation{symbolic.Rel(n, ">=", symbolic.Int(4))}, Value: symbolic.MustParse("n - 3")},
	}}
	for _, x := range []int64{2, 10} {
		v, _ := pw.Eval(map[string]symbolic.Rat{"n": symbolic.RatInt(x)})
		fmt.Println(x, v)
	}
	fmt.Println(pw)
	// Output:
	// 2 0
	// 10 7
	// n - 3    if n >= 4
}
