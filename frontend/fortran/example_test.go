package fortran_test

import (
	"fmt"
	"os"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
)

func ExampleParseSource() {
	src := `
      subroutine shift(x, m, me, np)
      include 'mpif.h'
      integer m, me, np, i, ierr
      double precision x(m)
      do 10 i = 1, m
         x(i) = 2.0d0*x(i) + 1.0d0
   10 continue
      if (me .lt. np-1) call MPI_SEND(x, m, MPI_DOUBLE_PRECISION,
     &                               me+1, 0, MPI_COMM_WORLD, ierr)
      end
`
	prog, diags := fortran.ParseSource("shift.f", []byte(src), fortran.Config{})
	for _, d := range diags {
		fmt.Println(d)
	}
	apt.Inspect(prog, func(n apt.Node) bool {
		switch n := n.(type) {
		case *apt.Loop:
			fmt.Printf("%s: do %s = %s, %s\n", n.ID, n.Var, apt.FormatExpr(n.Lower), apt.FormatExpr(n.Upper))
		case *apt.Block:
			for _, s := range n.Stmts {
				fmt.Printf("%s: %s = %s [%s]\n", s.ID, apt.FormatExpr(s.Target), apt.FormatExpr(s.Value), apt.FormatOps(s.Ops))
			}
		case *apt.Comm:
			fmt.Printf("%s: %s %s elements of %d bytes to %s\n", n.ID, n.Op, apt.FormatExpr(n.Send.Count), n.Send.TypeSize, apt.FormatExpr(n.Send.Peer))
		}
		return true
	})
	// Output:
	// shift/L1: do i = 1, m
	// shift/L1/B1/s1: x(i) = 2.0d0*x(i) + 1.0d0 [add=1 mul=1 load=1 store=1]
	// shift/I1/b1/M1: send m elements of 8 bytes to me + 1
}

func ExampleParseFiles() {
	prog, diags := fortran.ParseFiles([]string{"../../testdata/programs/trap_serial.f"}, fortran.Config{})
	fmt.Println(len(diags), "diagnostics")
	r := prog.Routine("trapsr")
	fmt.Println(r.Kind, r.Name, "n =", apt.FormatExpr(r.Scope.Lookup("n").Param))
	apt.Fprint(os.Stdout, r.Body[1])
	// Output:
	// 0 diagnostics
	// program trapsr n = 1024
	// trapsr/L1 loop do i = 1, n - 1 end=10 @../../testdata/programs/trap_serial.f:18:7-21:14
	//   trapsr/L1/B1 block @../../testdata/programs/trap_serial.f:19:10-20:35
	//     trapsr/L1/B1/s1 x = x + h  [add=1] @../../testdata/programs/trap_serial.f:19:10-19:18
	//     trapsr/L1/B1/s2 integral = integral + f(x)  [add=1 call:f=1] @../../testdata/programs/trap_serial.f:20:10-20:35
	//   trapsr/L1/N1 continue label=10 @../../testdata/programs/trap_serial.f:21:7-21:14
}
