package model

import (
	"math/big"

	"github.com/mkvet/mkvet/symbolic"
)

// Exact decimal constants for the tables below, so that a profile holds
// exactly the digits its source prints.

// dec returns the decimal string s times scale.
func dec(s string, scale symbolic.Rat) symbolic.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("model: bad constant " + s)
	}
	return symbolic.RatBig(r).Mul(scale)
}

var (
	microsecond = symbolic.RatFrac(1, 1e6)
	nanosecond  = symbolic.RatFrac(1, 1e9)
)

func us(s string) symbolic.Rat { return dec(s, microsecond) }
func ns(s string) symbolic.Rat { return dec(s, nanosecond) }

// usPerDouble converts Pacheco's t_c, microseconds per double, to seconds
// per byte (a double is 8 bytes).
func usPerDouble(s string) symbolic.Rat { return dec(s, microsecond.Quo(symbolic.RatInt(8))) }

// bytesPerSecond converts a bandwidth to seconds per byte.
func bytesPerSecond(bw int64) symbolic.Rat { return symbolic.RatFrac(1, bw) }

func nbytes(n int64) symbolic.Rat { return symbolic.RatInt(n) }

// DefaultName is the name of the embedded default profile.
const DefaultName = "cluster"

// pacheco builds a profile of Pacheco's Table 11.1 (seed 004): t_a is the
// time of a double-precision add or multiply on 1000x1000 Linpack (empty
// where the table prints "—"), t_s the message start-up and t_c the time
// per double at 1 MB messages, all in microseconds.
func pacheco(name, machine, system, ta, ts, tc string) *Profile {
	p := &Profile{
		Name:        name,
		Description: machine + " (" + system + "), Hockney model t_s + m*t_c",
		Source:      "Pacheco, Parallel Programming with MPI, Table 11.1 (seed 004); t_c converted from per double to per byte",
		Model:       ModelHockney,
		Hockney:     &Hockney{Ts: us(ts), Tc: usPerDouble(tc)},
	}
	if ta != "" {
		p.Ops = Ops{Flop: us(ta), Add: us(ta), Mul: us(ta)}
	}
	return p
}

// scala builds a SCALA profile from Table 2 of seed 001 ("Communication
// Models (in μs)": rho in microseconds, beta in microseconds per byte) for
// the 1-d and 2-d torus patterns of the Jacobi code, short and long
// messages. The seed does not give the short/long boundary, so the patterns
// are chosen by name; the point-to-point default is the 1-d short pattern.
func scala(name, machine string, rho, beta [4]string) *Profile {
	pat := map[string]Hockney{}
	for i, k := range []string{"1d-short", "1d-long", "2d-short", "2d-long"} {
		pat[k] = Hockney{Ts: us(rho[i]), Tc: us(beta[i])}
	}
	h := pat["1d-short"]
	return &Profile{
		Name:        name,
		Description: machine + ", SCALA rho + beta*D per communication pattern (1-d and 2-d torus, short and long messages)",
		Source:      "Sun, Fahringer, Pantano, SCALA, Table 2 (seed 001)",
		Model:       ModelHockney,
		Hockney:     &h,
		Patterns:    pat,
	}
}

// brim builds a profile of Brim's LogGP fit to LAM/MPI over Ethernet (seed
// 002 §V.iii, "Fortran Parameters" and "C Parameters"): L = 60 us measured;
// o_s and G_a below 1400 B (one Ethernet packet), o_l and G_b from 1400 B
// to 64 KiB, rendezvous above 64 KiB (LAM's short-message limit, 65536 B)
// with G_c. The tables print no units: o and L are microseconds (the text
// gives L as 60 microseconds), G is microseconds per byte (the slopes of
// latency in microseconds against bytes).
func brim(name, lang, ga, gb, gc, os, ol string) *Profile {
	return &Profile{
		Name:        name,
		Description: "LAM/MPI on a Linux Ethernet cluster, " + lang + " benchmarks, LogGP with size regimes",
		Source:      "Brim, LogGP model of NAS LU, " + lang + " Parameters table (seed 002 §V.iii)",
		Model:       ModelLogGP,
		LogGP: &LogGP{
			L: us("60"),
			Regimes: []Regime{
				{Below: nbytes(1400), O: us(os), G: us(ga)},
				{O: us(ol), G: us(gb)},
			},
			EagerLimit: nbytes(65536),
			Rendezvous: Rendezvous{OCtrl: us(os), OData: us(ol), G: us(gc)},
		},
	}
}

// embedded holds the built-in profiles.
var embedded = []*Profile{
	// The default: a present-day cluster node with an InfiniBand-class
	// network. These are nominal figures, not a measurement: a work unit
	// (an add or multiply of compiled scientific loops, the unit mkvet's
	// weights count in) at 0.1 ns, the order mkvet membench's unit kernels
	// and the NAS benchmarks' loops take on current 3-5 GHz cores; a
	// divide 8 units, an intrinsic call 40, loads and stores from cache 2;
	// MPI latency 1.5 us and 12.5 GB/s (HDR InfiniBand is 25 GB/s raw).
	// Eager messages up to 64 KiB, rendezvous above. The memory hierarchy
	// is nominalNode's. Run `mkvet netbench` and `mkvet membench -o` to
	// measure a machine.
	{
		Name:        DefaultName,
		Description: "present-day cluster node, InfiniBand-class network (nominal values; measure with mkvet netbench)",
		Source:      "mkvet nominal default",
		Ops: Ops{
			Flop: ns("0.1"), Add: ns("0.1"), Mul: ns("0.1"), Div: ns("0.8"),
			Intrinsic: ns("4"), Load: ns("0.2"), Store: ns("0.2"),
		},
		Model:   ModelLogGP,
		Hockney: &Hockney{Ts: us("1.5"), Tc: bytesPerSecond(12_500_000_000)},
		LogGP: &LogGP{
			L: us("0.9"),
			Regimes: []Regime{
				{Below: nbytes(8192), O: us("0.3"), G: bytesPerSecond(10_000_000_000)},
				{O: us("0.6"), G: bytesPerSecond(12_500_000_000)},
			},
			EagerLimit: nbytes(65536),
			Rendezvous: Rendezvous{OCtrl: us("0.3"), OData: us("0.6"), G: bytesPerSecond(12_500_000_000)},
		},
		Memory: nominalNode,
	},

	// Pacheco, Table 11.1 (seed 004), one profile per row, in table order.
	pacheco("t3d-pvm", "Cray T3D (PVM)", "MAX 1.2.0.2", "0.011", "21", "0.30"),
	pacheco("t3d-sm", "Cray T3D (SM: shared-memory functions)", "MAX 1.2.0.2", "0.011", "3", "0.063"),
	pacheco("paragon", "Intel Paragon", "OSF 1.0.4", "0.030", "29", "0.052"),
	pacheco("ipsc860", "Intel iPSC/860", "NX 3.3.2", "0.030", "65", "2.7"),
	pacheco("ipsc2", "Intel iPSC/2", "NX 3.3.2", "", "370", "2.9"),
	pacheco("sp1", "IBM SP-1", "MPL", "0.0096", "270", "1.1"),
	pacheco("sp2", "IBM SP-2", "MPI", "0.0042", "35", "0.23"),
	pacheco("cs2-sm", "Meiko CS2 (SM: shared-memory functions)", "Solaris 2.3", "0.010", "11", "0.20"),
	pacheco("cs2", "Meiko CS2", "Solaris 2.3", "0.010", "83", "0.19"),
	pacheco("ncube2", "nCUBE 2", "Vertex 3.2", "0.50", "170", "4.7"),
	pacheco("cm5", "TMC CM-5", "CMMD 2.0", "", "95", "0.89"),
	pacheco("ethernet", "Ethernet", "TCP/IP", "", "500", "8.9"),

	// MK (seed 000 §5.2): the 226-node Intel Paragon at NASA Ames, NX on
	// OSF/1, "120 μs latency and 30MB/s bandwidth".
	{
		Name:        "mk-paragon",
		Description: "Intel Paragon at NASA Ames (NX on OSF/1), 120 us latency, 30 MB/s",
		Source:      "Block, Sarukkai, Mehra, MK, §5.2 (seed 000)",
		Model:       ModelHockney,
		Hockney:     &Hockney{Ts: us("120"), Tc: bytesPerSecond(30_000_000)},
	},

	// SCALA (seed 001), Table 2. The table heads its second machine "QWS
	// CS-2"; the text calls it QSW (Quadrics Supercomputers World).
	scala("t3e", "Cray T3E",
		[4]string{"35.6", "71.2", "40.3", "77.5"},
		[4]string{"2.0e-2", "12.5e-3", "2.1e-2", "14.1e-3"}),
	scala("qsw-cs2", "QSW CS-2",
		[4]string{"220.3", "297.2", "150.4", "192.9"},
		[4]string{"5.5e-2", "3.5e-2", "6.7e-2", "4.4e-2"}),

	// Brim (seed 002 §V.iii), C and Fortran parameter tables.
	brim("lam-c", "C", "0.374008", "0.182775", "0.216644", "39.03", "163.43"),
	brim("lam-fortran", "Fortran", "0.372917", "0.183877", "0.212738", "41.26", "159.84"),

	// PerWiz (seed 003 §5): 64 Pentium III 1-GHz PCs, Myrinet, MPICH-SCore;
	// L = 9.11 us, o = 2.15 us, S = 16 383 bytes. The seed does not print g
	// or G ("the remaining LogGPS parameters had no influence"); G here is
	// the link's 2 Gb/s from the same section, 4 ns per byte, and g is 0.
	// The seed gives no operation costs.
	{
		Name:        "myrinet-score",
		Description: "64 Pentium III 1-GHz PCs, Myrinet switch, MPICH-SCore, LogGPS",
		Source:      "Ino et al., PerWiz, §5 (seed 003); G from the stated 2 Gb/s link bandwidth",
		Model:       ModelLogGPS,
		LogGPS: &LogGPS{
			L: us("9.11"), O: us("2.15"), G: bytesPerSecond(250_000_000),
			P: 64, S: nbytes(16383),
		},
	},
}

// nominalNode is the default profile's memory hierarchy: a present-day
// two-socket node of 64 cores in groups of 8 sharing a 32 MiB last-level
// cache, 48 KiB L1 and 1 MiB L2 per core. The times are nominal, of the
// order mkvet membench measures on current x86-64 servers (streaming from
// the caches at 30-100 GB/s per core; from memory about 20 GB/s for one
// core and some 200 GB/s for the node, 3 GB/s a core with every core
// streaming; a strided or gathered access a few nanoseconds from memory,
// tens with every core at it). Run mkvet membench -o to measure a machine.
var nominalNode = &Memory{
	CPUs: 64, Line: 64,
	Levels: []MemLevel{
		{Name: "L1", Size: 48 << 10, Shared: 1, Ways: 12, One: 1e-11, All: 1e-11,
			StrideOne: 0.3e-9, StrideAll: 0.3e-9, WalkOne: 0.3e-9, WalkAll: 0.3e-9, GatherOne: 0.3e-9, GatherAll: 0.3e-9},
		{Name: "L2", Size: 1 << 20, Shared: 1, Ways: 16, One: 2e-11, All: 2e-11,
			StrideOne: 0.6e-9, StrideAll: 1e-9, WalkOne: 0.5e-9, WalkAll: 0.8e-9, GatherOne: 0.6e-9, GatherAll: 1e-9},
		{Name: "L3", Size: 32 << 20, Shared: 8, Ways: 16, One: 3.3e-11, All: 6.7e-11,
			StrideOne: 0.8e-9, StrideAll: 2e-9, WalkOne: 0.7e-9, WalkAll: 1.5e-9, GatherOne: 0.8e-9, GatherAll: 2e-9},
		{Name: "memory", One: 5e-11, All: 3.3e-10,
			StrideOne: 5e-9, StrideAll: 20e-9, WalkOne: 4e-9, WalkAll: 16e-9, GatherOne: 7e-9, GatherAll: 20e-9},
	},
	Source: "mkvet nominal default (measure with mkvet membench -o)",
}
