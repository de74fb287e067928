package model_test

import (
	"fmt"
	"os"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/symbolic"
)

func ExampleLookup() {
	p, _ := model.Lookup("ncube2")
	fmt.Println(p.Description)
	fmt.Println(model.FormatDuration(p.Hockney.Ts), model.FormatPerByte(p.Hockney.Tc), model.FormatDuration(p.Ops.Flop))
	// Output:
	// nCUBE 2 (Vertex 3.2), Hockney model t_s + m*t_c
	// 170us 587.5ns/B 500ns
}

func ExampleLogGP_Time() {
	// Brim's LAM/MPI parameters: one piece per size regime, guards on the size.
	p, _ := model.Lookup("lam-c")
	fmt.Println(p.LogGP.Time(symbolic.MustParse("8*N")))
	fmt.Printf("%.2f us\n", p.LogGP.Seconds(1400)*1e6)
	// Output:
	// 46751*N/15625000000 + 6903/50000000    if 8*N <= 1399
	// 7311*N/5000000000 + 19343/50000000    if 8*N >= 1400 and 8*N <= 65536
	// 54161*N/31250000000 + 12479/20000000    if 8*N >= 65537
	// 642.74 us
}

func ExampleLogGPS_Time() {
	p, _ := model.Lookup("myrinet-score")
	for _, m := range []float64{16383, 16384} {
		fmt.Printf("%5.0f B: %.2f us\n", m, p.LogGPS.Seconds(m)*1e6)
	}
	// Output:
	// 16383 B: 78.94 us
	// 16384 B: 103.62 us
}

func ExampleCollective_Time() {
	// Pacheco's tree reduce of one float on the nCUBE 2: t_s = 170 us, t_c =
	// 2.5 us per float, t_a = 1.5 us per stage (seed 004 §11.6).
	us := symbolic.RatFrac(1, 1_000_000)
	net := model.Hockney{Ts: symbolic.RatInt(170).Mul(us), Tc: symbolic.RatFrac(25, 40).Mul(us)}
	ta := symbolic.Const(symbolic.RatFrac(3, 2).Mul(us))
	pw, _ := model.Reduce.Time(net, symbolic.Sym("p"), symbolic.Int(4), ta)
	fmt.Println(pw)
	fmt.Printf("%.0f us at p = 32\n", model.Reduce.Seconds(net, 32, 4, 1.5e-6)*1e6)
	// Output:
	// 87*ceil(log2(p))/500000
	// 870 us at p = 32
}

func ExampleReadProfile() {
	src := `{
  "name": "paragon-mk",
  "hockney": {"t_s": "120 us", "t_c": "30MB/s"}
}`
	p, err := model.ReadProfile("paragon.json", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	net, _ := p.Network()
	fmt.Println(net.Time(symbolic.Sym("m")))
	_, err = model.ReadProfile("bad.json", []byte(`{"hockney": {"t_s": "120 furlongs", "t_c": "30MB/s"}}`))
	fmt.Println(err)
	// Output:
	// m/30000000 + 3/25000
	// bad.json:1:21: hockney.t_s: unknown unit "furlongs" in "120 furlongs"
}

func ExampleProfile_WriteJSON() {
	p, _ := model.Lookup("mk-paragon")
	p.WriteJSON(os.Stdout)
	// Output:
	// {
	//   "name": "mk-paragon",
	//   "description": "Intel Paragon at NASA Ames (NX on OSF/1), 120 us latency, 30 MB/s",
	//   "source": "Block, Sarukkai, Mehra, MK, §5.2 (seed 000)",
	//   "model": "hockney",
	//   "hockney": {
	//     "t_s": "120us",
	//     "t_c": "30MB/s"
	//   }
	// }
}

func ExampleParseDuration() {
	for _, s := range []string{"2.15us", "9.11 us", "1.5ms"} {
		d, _ := model.ParseDuration(s)
		fmt.Println(s, "=", d, "s")
	}
	// Output:
	// 2.15us = 43/20000000 s
	// 9.11 us = 911/100000000 s
	// 1.5ms = 3/2000 s
}
