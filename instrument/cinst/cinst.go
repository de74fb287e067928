// Package cinst instruments C and C++ programs: it adds mkvet's probes to
// the LLVM IR the APT was built from (frontend/llvmir) rather than to the
// source, and writes a small C runtime beside it. The IR is the right place:
// every APT node of a C program has its site there (a function's entry, a
// loop's preheader and body, a call instruction), while the source can hide
// statements in macros and expressions, and a counter added to the IR can
// only count, never change what the program computes. The copy keeps the
// user's sources untouched: the instrumented program is the normalised IR
// (program.ll) plus the runtime (mkvet_rt.c), compiled with clang-14 and
// linked with the MPI library (BuildCommand).
//
// The probes and records are those of package instrument, so runs read and
// calibrate the same way: every routine counts its calls, every loop its
// entries and iterations, every MPI call its calls, messages and bytes sent
// and received (nothing to MPI_PROC_NULL; a collective one message per call
// and side) and its time; routines not called from inside a loop and
// their outermost loops are timed too (every routine's outermost loops with
// Options.NestTimers), each region's exclusive time leaving out the timed
// regions nested in it, as the Fortran runtime does; at MPI_Finalize each
// rank writes $MKVET_OUT/mkvet.<rank>.jsonl with the run's program time,
// processor time, speed probe and the measured cost of a timer pair, which
// calibrate reads as it reads a Fortran program's.
package cinst

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/llvmir"
	"github.com/mkvet/mkvet/instrument"
)

// Files the instrumented copy consists of.
const (
	ProgramFile = "program.ll"
	RuntimeFile = "mkvet_rt.c"
)

// BuildCommand is the command that compiles the copy in its directory:
// clang-14 reads the IR and the runtime, and the MPI compiler wrapper's
// own flags (Open MPI's mpicc -showme:compile and -showme:link) give the
// headers and the library, and the C++ runtime is linked for the programs
// written in C++ (their IR calls operator new and libstdc++'s throws);
// {srcs} and {exe} are sweep's placeholders.
func BuildCommand() string {
	flags := func(arg string) string {
		out, err := exec.Command("mpicc", arg).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	return strings.Join(strings.Fields("clang-14 -O1 -Wno-override-module "+flags("-showme:compile")+" {srcs} "+
		flags("-showme:link")+" -lstdc++ -lm -o {exe}"), " ")
}

// msgArg says where one side of a transfer is in an MPI call's C
// arguments: the count, the datatype and the peer (-1 for a collective).
// With perRank, count is an array of counts, one per process of the
// communicator at comm: the caller's own block is its element at its rank
// (MPI_Allgatherv's receive side).
type msgArg struct {
	side, count, dtype, peer int
	perRank                  bool
	comm                     int
}

// Sides as the runtime's mkvet_msg takes them (instrument's numbering).
const (
	sideSend     = 1
	sideRecv     = 2
	sideCollSend = 3
	sideCollRecv = 4
)

// msgArgs are the transfers of op and where their figures are among the
// call's arguments. The layout is apt.NewComm's (one table of the MPI
// bindings for every frontend): it is given markers for arguments and
// says which ends up where. The sides are those the Fortran
// instrumentation counts: the send side unless the call only receives,
// the receive side, none for v-variants (counts are arrays).
func msgArgs(op apt.CommOp) []msgArg {
	markers := make([]apt.Expr, 16)
	for i := range markers {
		markers[i] = &apt.Const{Kind: apt.ConstInt, Text: strconv.Itoa(i)}
	}
	c, _ := apt.NewComm(op, markers)
	at := func(e apt.Expr) int {
		if k, ok := e.(*apt.Const); ok {
			n, _ := strconv.Atoi(k.Text)
			return n
		}
		return -1
	}
	coll := op.IsCollective()
	var out []msgArg
	side := func(m *apt.Msg, s int) {
		if m != nil && m.Displs != nil && op == apt.MPIAllgatherv && m.Count != nil && m.Datatype != nil && c.Comm != nil {
			out = append(out, msgArg{side: s + 2, count: at(m.Count), dtype: at(m.Datatype), peer: -1, perRank: true, comm: at(c.Comm)})
			return
		}
		if vSide, other := c.RootedBlock(); m != nil && vSide == m && other != nil && other.Count != nil && other.Datatype != nil {
			// gatherv's and scatterv's counts are the root's alone: the
			// caller's block there is its other side's (as the static
			// counts take it, symeval/comm.go).
			out = append(out, msgArg{side: s + 2, count: at(other.Count), dtype: at(other.Datatype), peer: -1})
			return
		}
		if m == nil || m.Count == nil || m.Datatype == nil || m.Displs != nil {
			return
		}
		a := msgArg{side: s, count: at(m.Count), dtype: at(m.Datatype), peer: -1}
		if coll {
			a.side += 2
		} else if a.peer = at(m.Peer); a.peer < 0 {
			return
		}
		out = append(out, a)
	}
	if op != apt.MPIRecv && op != apt.MPIIrecv {
		side(c.Send, sideSend)
	}
	side(c.Recv, sideRecv)
	return out
}

// Options choose what is timed.
type Options struct {
	// NestTimers times every routine's outermost loops, those of routines
	// called from loops too (instrument.Options.NestTimers).
	NestTimers bool
}

// Instrument writes the instrumented copy of a lifted program into dir
// (created; it must not hold an earlier copy) and returns its probe table,
// also written there as instrument.ProbesFile. The module is changed in
// place.
func Instrument(lf *llvmir.Lifted, dir string, opt Options) (*instrument.Result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range []string{ProgramFile, RuntimeFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return nil, fmt.Errorf("%s already exists: instrument writes into a new directory", filepath.Join(dir, f))
		}
	}
	in := &inst{m: lf.Module, opt: opt, res: &instrument.Result{Dir: dir, Runtime: RuntimeFile,
		Sources: []string{RuntimeFile, ProgramFile}, Files: []string{RuntimeFile, ProgramFile}}}
	in.hot = instrument.HotRoutines(lf.Prog)
	in.nests = nests(lf.Prog)
	in.declare()
	for _, s := range lf.Sites {
		in.site(s)
	}
	in.lifecycle()
	if err := os.WriteFile(filepath.Join(dir, ProgramFile), []byte(moduleText(in.m)), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, RuntimeFile), []byte(runtime(in.res.Probes)), 0o644); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(in.res, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, instrument.ProbesFile), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	return in.res, nil
}

type inst struct {
	m   *ir.Module
	opt Options
	res *instrument.Result
	n   int // fresh names
	// hot are the routines called from inside loops (counted, not timed);
	// nests the loops outermost in their routines, with their routine.
	hot   map[*apt.Routine]bool
	nests map[*apt.Loop]*apt.Routine

	counts, iters                           *ir.Global
	msg, msgv, enter, exit, started, finish *ir.Func
	slots                                   int
}

// maxSlots bounds the probe table: the counter arrays are sized before the
// sites are known.
const maxSlots = 1 << 16

func (in *inst) declare() {
	arr := types.NewArray(maxSlots+1, types.I64)
	in.counts = in.m.NewGlobal("mkvet_c", arr)
	in.iters = in.m.NewGlobal("mkvet_i", arr)
	in.counts.Linkage, in.iters.Linkage = enum.LinkageExternal, enum.LinkageExternal
	in.msg = in.m.NewFunc("mkvet_msg", types.Void, ir.NewParam("", types.I32), ir.NewParam("", types.I32),
		ir.NewParam("", types.I64), ir.NewParam("", types.I64), ir.NewParam("", types.I32))
	in.msgv = in.m.NewFunc("mkvet_msgv", types.Void, ir.NewParam("", types.I32), ir.NewParam("", types.I32),
		ir.NewParam("", types.I64), ir.NewParam("", types.I64), ir.NewParam("", types.I64))
	in.enter = in.m.NewFunc("mkvet_enter", types.Void, ir.NewParam("", types.I32))
	in.exit = in.m.NewFunc("mkvet_exit", types.Void, ir.NewParam("", types.I32))
	in.started = in.m.NewFunc("mkvet_started", types.Void)
	in.finish = in.m.NewFunc("mkvet_finish", types.Void)
}

func (in *inst) name() string {
	in.n++
	return fmt.Sprintf("mkvet.%d", in.n)
}

// site adds the probes of one node.
func (in *inst) site(s llvmir.Site) {
	b := s.Node.Base()
	if s.Shared {
		in.res.Notes = append(in.res.Notes, instrument.Note{Pos: b.Span.Start(),
			Msg: fmt.Sprintf("%s is written into several nodes of the APT (code reached from two branches); not counted", b.ID)})
		return
	}
	switch n := s.Node.(type) {
	case *apt.Routine:
		if len(s.Func.Blocks) == 0 {
			return
		}
		k := in.slot(n, "routine")
		entry := s.Func.Blocks[0]
		probes := in.increment(in.counts, k)
		if !in.hot[n] {
			// Timed from its entry to every return.
			in.res.Probes[len(in.res.Probes)-1].Timed = true
			probes = append(probes, in.call(in.enter, k))
			for _, b := range s.Func.Blocks {
				if _, ok := b.Term.(*ir.TermRet); ok {
					in.insertAt(b, len(b.Insts), in.call(in.exit, k))
				}
			}
		}
		in.insertAt(entry, firstNonPhi(entry), probes...)
	case *apt.Loop:
		if s.Entry == nil || s.Body == nil {
			return
		}
		k := in.slot(n, "loop")
		p := &in.res.Probes[len(in.res.Probes)-1]
		p.Iters = true
		entry := in.increment(in.counts, k)
		if r, nest := in.nests[n]; nest && (!in.hot[r] || in.opt.NestTimers) && len(s.Exits) > 0 {
			// A nest is timed from its preheader to the start of every
			// block its edges leave to (a return from inside it too).
			p.Timed = true
			entry = append(entry, in.call(in.enter, k))
			for _, b := range s.Exits {
				in.insertAt(b, firstNonPhi(b), in.call(in.exit, k))
			}
		}
		in.insertAt(s.Entry, len(s.Entry.Insts), entry...)
		in.insertAt(s.Body, firstNonPhi(s.Body), in.increment(in.iters, k)...)
	case *apt.Comm:
		in.comm(n, s)
	}
}

// emptyFlags matches a metadata flags field written with no flag set.
var emptyFlags = regexp.MustCompile(`\b(spFlags|flags): ([,)])`)

// moduleText is the module as LLVM assembly. llir writes a debug-info
// flags field that holds no flag as nothing at all ("spFlags: )": a
// deleted member of a C++ union in libstdc++), which clang's reader
// refuses; it is written as 0, what the field holds.
func moduleText(m *ir.Module) string {
	return emptyFlags.ReplaceAllString(m.String(), "$1: 0$2")
}

// call is a call of the runtime's f with slot k.
func (in *inst) call(f *ir.Func, k int) ir.Instruction {
	return ir.NewCall(f, constant.NewInt(types.I32, int64(k)))
}

// nests maps every loop outermost in its routine to the routine.
func nests(prog *apt.Program) map[*apt.Loop]*apt.Routine {
	out := map[*apt.Loop]*apt.Routine{}
	var walk func(r *apt.Routine, n apt.Node)
	walk = func(r *apt.Routine, n apt.Node) {
		if l, ok := n.(*apt.Loop); ok {
			out[l] = r
			return
		}
		for _, c := range apt.Children(n) {
			if _, isR := c.(*apt.Routine); !isR {
				walk(r, c)
			}
		}
	}
	for _, r := range prog.Routines {
		for _, n := range r.Body {
			walk(r, n)
		}
	}
	return out
}

func (in *inst) slot(n apt.Node, kind string) int {
	in.slots++
	k := in.slots
	b := n.Base()
	in.res.Probes = append(in.res.Probes, instrument.Probe{Slot: k, Node: b.ID, Kind: kind, Pos: b.Span.Start()})
	return k
}

func firstNonPhi(b *ir.Block) int {
	for i, inst := range b.Insts {
		if _, ok := inst.(*ir.InstPhi); !ok {
			return i
		}
	}
	return len(b.Insts)
}

// increment is counter[k] += 1 on the global counter array g.
func (in *inst) increment(g *ir.Global, k int) []ir.Instruction {
	ptr := constant.NewGetElementPtr(g.ContentType, g, constant.NewInt(types.I64, 0), constant.NewInt(types.I64, int64(k)))
	ld := ir.NewLoad(types.I64, ptr)
	ld.SetName(in.name())
	add := ir.NewAdd(ld, constant.NewInt(types.I64, 1))
	add.SetName(in.name())
	st := ir.NewStore(add, ptr)
	return []ir.Instruction{ld, add, st}
}

func (in *inst) insertAt(b *ir.Block, i int, insts ...ir.Instruction) {
	for _, x := range insts {
		if p, ok := x.(interface{ SetParent(*ir.Block) }); ok {
			p.SetParent(b)
		}
	}
	b.Insts = append(b.Insts[:i], append(insts, b.Insts[i:]...)...)
}

// around inserts before ahead of instruction at of function f and after
// behind it.
func (in *inst) around(f *ir.Func, at ir.Instruction, before, after []ir.Instruction) {
	for _, b := range f.Blocks {
		for i, x := range b.Insts {
			if x == at {
				in.insertAt(b, i+1, after...)
				in.insertAt(b, i, before...)
				return
			}
		}
	}
}

// aroundSite inserts before ahead of the call at site s and after behind
// it. A call made by an invoke ends its block: what goes before it goes
// at the block's end, what goes after it at the start of the invoke's
// normal path (an edge block of its own, which the other paths into the
// normal target do not take).
func (in *inst) aroundSite(s llvmir.Site, before, after []ir.Instruction) {
	if s.Invoke == nil {
		in.around(s.Func, s.Call, before, after)
		return
	}
	in.aroundInvoke(s.Func, s.Invoke, before, after)
}

func (in *inst) aroundInvoke(f *ir.Func, t *ir.TermInvoke, before, after []ir.Instruction) {
	for _, b := range f.Blocks {
		if b.Term != ir.Terminator(t) {
			continue
		}
		in.insertAt(b, len(b.Insts), before...)
		if len(after) > 0 {
			in.insertAt(in.normalEdge(f, b, t), 0, after...)
		}
		return
	}
}

// normalEdge returns a block of its own on the edge from b, whose invoke
// t ends it, to t's normal target: the target's phis then take their
// value from b through it.
func (in *inst) normalEdge(f *ir.Func, b *ir.Block, t *ir.TermInvoke) *ir.Block {
	to, ok := t.NormalRetTarget.(*ir.Block)
	if !ok {
		return b // (not reached: llir resolves targets to blocks)
	}
	e := ir.NewBlock(in.name())
	e.Parent = f
	e.NewBr(to)
	for _, x := range to.Insts {
		if phi, isPhi := x.(*ir.InstPhi); isPhi {
			for _, inc := range phi.Incs {
				if inc.Pred == value.Value(b) {
					inc.Pred = e
				}
			}
		}
	}
	t.NormalRetTarget = e
	f.Blocks = append(f.Blocks, e)
	return e
}

func (in *inst) comm(n *apt.Comm, s llvmir.Site) {
	if n.Op == apt.MPIAbort || s.Call == nil {
		return
	}
	k := in.slot(n, "comm")
	p := &in.res.Probes[len(in.res.Probes)-1]
	p.Op = n.Op.String()
	in.res.MPI = true
	before := in.increment(in.counts, k)
	var after []ir.Instruction
	switch n.Op {
	case apt.MPIFinalize:
		before = append(before, ir.NewCall(in.finish))
		in.aroundSite(s, before, nil)
		return
	case apt.MPIInit:
		// Timed like every MPI call, so that the routine calling it does
		// not take its time (calibrate leaves MPI_Init out of the
		// program's).
		p.Timed = true
		before = append(before, in.call(in.enter, k))
		in.aroundSite(s, before, []ir.Instruction{in.call(in.exit, k), ir.NewCall(in.started)})
		return
	}
	args := s.Call.Args
	arg := func(i int) value.Value {
		if i < len(args) {
			if a, ok := args[i].(*ir.Arg); ok {
				return a.Value
			}
			return args[i]
		}
		return nil
	}
	for _, m := range msgArgs(n.Op) {
		cnt, dt := arg(m.count), arg(m.dtype)
		if cnt == nil || dt == nil {
			continue
		}
		var peer value.Value = constant.NewInt(types.I32, 0)
		if m.peer >= 0 {
			if peer = arg(m.peer); peer == nil {
				continue
			}
		}
		c64, pre1 := in.toI64(cnt, m.perRank)
		d64, pre2 := in.toI64(dt, true)
		before = append(before, pre1...)
		before = append(before, pre2...)
		if m.perRank {
			comm := arg(m.comm)
			if comm == nil {
				continue
			}
			m64, pre3 := in.toI64(comm, true)
			before = append(before, pre3...)
			before = append(before, ir.NewCall(in.msgv, constant.NewInt(types.I32, int64(k)),
				constant.NewInt(types.I32, int64(m.side)), c64, d64, m64))
			continue
		}
		before = append(before, ir.NewCall(in.msg, constant.NewInt(types.I32, int64(k)),
			constant.NewInt(types.I32, int64(m.side)), c64, d64, peer))
	}
	p.Timed = true
	before = append(before, in.call(in.enter, k))
	after = append(after, in.call(in.exit, k))
	in.aroundSite(s, before, after)
}

// lifecycle makes sure every MPI_Init is followed by the runtime's start
// and every MPI_Finalize preceded by its writing of the records, also
// where the call's node was not probed (code the structuring wrote into
// two arms): without them no rank writes anything.
func (in *inst) lifecycle() {
	for _, f := range in.m.Funcs {
		for _, b := range slices.Clone(f.Blocks) {
			if t, ok := b.Term.(*ir.TermInvoke); ok {
				// (A C++ call made by an invoke ends its block.)
				if callee, ok := t.Invokee.(*ir.Func); ok {
					switch strings.TrimPrefix(callee.Name(), "P") {
					case "MPI_Finalize":
						if n := len(b.Insts); n == 0 || !isCallOf(b.Insts[n-1], in.finish) {
							in.aroundInvoke(f, t, []ir.Instruction{ir.NewCall(in.finish)}, nil)
							in.res.MPI = true
						}
					case "MPI_Init", "MPI_Init_thread":
						if to, ok := t.NormalRetTarget.(*ir.Block); !ok || len(to.Insts) == 0 || !isCallOf(to.Insts[0], in.started) {
							in.aroundInvoke(f, t, nil, []ir.Instruction{ir.NewCall(in.started)})
						}
					}
				}
			}
			for i := 0; i < len(b.Insts); i++ {
				c, ok := b.Insts[i].(*ir.InstCall)
				if !ok {
					continue
				}
				callee, ok := c.Callee.(*ir.Func)
				if !ok {
					continue
				}
				switch strings.TrimPrefix(callee.Name(), "P") {
				case "MPI_Finalize":
					if i > 0 && isCallOf(b.Insts[i-1], in.finish) {
						continue
					}
					in.insertAt(b, i, ir.NewCall(in.finish))
					i++
					in.res.MPI = true
				case "MPI_Init", "MPI_Init_thread":
					if i+1 < len(b.Insts) && isCallOf(b.Insts[i+1], in.started) {
						continue
					}
					in.insertAt(b, i+1, ir.NewCall(in.started))
					i++
				}
			}
		}
	}
}

func isCallOf(inst ir.Instruction, f *ir.Func) bool {
	c, ok := inst.(*ir.InstCall)
	return ok && c.Callee == value.Value(f)
}

// toI64 widens an integer or converts a handle (a pointer) to i64.
func (in *inst) toI64(v value.Value, handle bool) (value.Value, []ir.Instruction) {
	if c, ok := v.(constant.Constant); ok {
		if handle {
			if _, isPtr := v.Type().(*types.PointerType); isPtr {
				return constant.NewPtrToInt(c, types.I64), nil
			}
		}
		if ci, ok := c.(*constant.Int); ok {
			return constant.NewInt(types.I64, ci.X.Int64()), nil
		}
	}
	if _, isPtr := v.Type().(*types.PointerType); isPtr {
		x := ir.NewPtrToInt(v, types.I64)
		x.SetName(in.name())
		return x, []ir.Instruction{x}
	}
	if t, ok := v.Type().(*types.IntType); ok && t.BitSize < 64 {
		x := ir.NewSExt(v, types.I64)
		x.SetName(in.name())
		return x, []ir.Instruction{x}
	}
	return v, nil
}

// runtime is the C runtime: the counters, message counting, the timers
// and the writer of the records. It follows the Fortran runtime
// (instrument/runtime.go) so that both write the same records: a stack of
// open regions whose exclusive times leave out the regions nested in them,
// an exit that closes the regions opened after its own and left open, a
// speed probe (a fixed sweep over 64 KB timed by every rank at once) at
// the start and the end outside the program time, the processor time, and
// the measured cost of a timer pair, from which the overhead is estimated.
// Time is CLOCK_MONOTONIC throughout, so regions opened before MPI_Init
// (main's) go on in the same time line.
func runtime(probes []instrument.Probe) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("/* mkvet runtime for an instrumented C/C++ program (written by mkvet instrument). */")
	w("#define _POSIX_C_SOURCE 199309L")
	w("#include <mpi.h>")
	w("#include <stdint.h>")
	w("#include <stdio.h>")
	w("#include <stdlib.h>")
	w("#include <string.h>")
	w("#include <time.h>")
	w("#define NS %d", len(probes))
	w("#define MAXDEPTH 512")
	w("int64_t mkvet_c[%d], mkvet_i[%d];", maxSlots+1, maxSlots+1)
	w("static int64_t msgs[NS + 1], bytes[NS + 1], rmsgs[NS + 1], rbytes[NS + 1], ntimed[NS + 1], nmsg, overflow;")
	w("static double incl[NS + 1], excl[NS + 1], t0[MAXDEPTH + 1], child[MAXDEPTH + 1];")
	w("static double tstart, cstart, probe0, pbuf[8192];")
	w("static int depth, stk[MAXDEPTH + 1], began, done;")
	w("static const char *ids[NS + 1] = {\"\",")
	for _, p := range probes {
		w("  %q,", p.Node)
	}
	w("};")
	w("static double now(void) {")
	w("  struct timespec ts;")
	w("  clock_gettime(CLOCK_MONOTONIC, &ts);")
	w("  return ts.tv_sec + 1e-9 * ts.tv_nsec;")
	w("}")
	w("static double cpu(void) {")
	w("  struct timespec ts;")
	w("  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);")
	w("  return ts.tv_sec + 1e-9 * ts.tv_nsec;")
	w("}")
	w("/* speedprobe times a fixed sweep over 64 KB (see the Fortran runtime). */")
	w("static double speedprobe(void) {")
	w("  int i, j;")
	w("  if (pbuf[0] == 0) for (i = 0; i < 8192; i++) pbuf[i] = 1; /* first touch outside the time */")
	w("  double t1 = now();")
	w("  for (j = 0; j < 64; j++)")
	w("    for (i = 0; i < 8192; i++) pbuf[i] = pbuf[i] * 0.999 + 1.0e-3;")
	w("  double t = now() - t1;")
	w("  if (pbuf[0] < 0) fprintf(stderr, \"mkvet: probe\\n\");")
	w("  return t;")
	w("}")
	w("void mkvet_msg(int k, int side, int64_t cnt, int64_t dt, int peer) {")
	w("  int sz;")
	w("  nmsg++;")
	w("  if (side <= 2 && peer == MPI_PROC_NULL) return;")
	w("  MPI_Type_size((MPI_Datatype)(intptr_t)dt, &sz);")
	w("  if (side == 1 || side == 3) { msgs[k]++; bytes[k] += cnt * sz; }")
	w("  else { rmsgs[k]++; rbytes[k] += cnt * sz; }")
	w("}")
	w("/* mkvet_msgv counts the caller's own block of a count per process. */")
	w("void mkvet_msgv(int k, int side, int64_t counts, int64_t dt, int64_t comm) {")
	w("  int r;")
	w("  MPI_Comm_rank((MPI_Comm)(intptr_t)comm, &r);")
	w("  mkvet_msg(k, side, ((const int *)(intptr_t)counts)[r], dt, 0);")
	w("}")
	w("void mkvet_enter(int k) {")
	w("  if (done) return;")
	w("  if (!began) { began = 1; tstart = now(); cstart = cpu(); }")
	w("  if (depth >= MAXDEPTH) { overflow++; return; }")
	w("  depth++;")
	w("  stk[depth] = k;")
	w("  child[depth] = 0;")
	w("  ntimed[k]++;")
	w("  t0[depth] = now();")
	w("}")
	w("static void pop(int d, double t) {")
	w("  while (depth >= d && depth >= 1) {")
	w("    double el = t - t0[depth];")
	w("    incl[stk[depth]] += el;")
	w("    excl[stk[depth]] += el - child[depth];")
	w("    if (depth > 1) child[depth - 1] += el;")
	w("    depth--;")
	w("  }")
	w("}")
	w("/* mkvet_exit closes the innermost open region of slot k, and any region")
	w("   opened after it and left open. */")
	w("void mkvet_exit(int k) {")
	w("  int d;")
	w("  if (done) return;")
	w("  double t = now();")
	w("  for (d = depth; d >= 1; d--)")
	w("    if (stk[d] == k) break;")
	w("  if (d >= 1) pop(d, t);")
	w("}")
	w("/* mkvet_started runs after MPI_Init: the speed probe, all ranks at once,")
	w("   outside the time of the regions already open; the program time starts. */")
	w("void mkvet_started(void) {")
	w("  int d;")
	w("  double ts = now();")
	w("  MPI_Barrier(MPI_COMM_WORLD);")
	w("  probe0 = speedprobe();")
	w("  for (d = 1; d <= depth; d++) t0[d] += now() - ts;")
	w("  began = 1;")
	w("  tstart = now();")
	w("  cstart = cpu();")
	w("}")
	w("/* mkvet_finish runs before MPI_Finalize: the run's figures are taken while")
	w("   MPI still runs, and the records written (mkvet_write); they are written")
	w("   again when the process exits, then counting the code after MPI_Finalize")
	w("   too (a C++ program's destructors at the end of main). A process the job")
	w("   kills before it exits (another rank's error exit) keeps the first. */")
	w("static int frank, fsize;")
	w("static double ftprog, fcpu, fprobe, ftpair, ftcount;")
	w("static int64_t ftev;")
	w("static void mkvet_write(void);")
	w("void mkvet_finish(void) {")
	w("  int k, i;")
	w("  if (done) return;")
	w("  double t = now(), cend = cpu();")
	w("  pop(1, t);")
	w("  ftprog = t - tstart;")
	w("  fcpu = cend - cstart;")
	w("  MPI_Barrier(MPI_COMM_WORLD);")
	w("  double probe1 = speedprobe();")
	w("  fprobe = probe0 > probe1 ? probe0 : probe1;")
	w("  ftev = 0;")
	w("  for (k = 1; k <= NS; k++) ftev += ntimed[k];")
	w("  double t1 = now();")
	w("  for (i = 0; i < 1000; i++) { mkvet_enter(0); mkvet_exit(0); }")
	w("  ftpair = (now() - t1) / 1000;")
	w("  ntimed[0] = 0; incl[0] = excl[0] = 0;")
	w("  volatile int64_t vc = 0;")
	w("  t1 = now();")
	w("  for (i = 0; i < 100000; i++) vc = vc + 1;")
	w("  ftcount = (now() - t1) / 100000;")
	w("  done = 1;")
	w("  MPI_Comm_rank(MPI_COMM_WORLD, &frank);")
	w("  MPI_Comm_size(MPI_COMM_WORLD, &fsize);")
	w("  mkvet_write();")
	w("  atexit(mkvet_write);")
	w("}")
	w("static void mkvet_write(void) {")
	w("  int k, rank = frank, size = fsize;")
	w("  int64_t cev = nmsg;")
	w("  for (k = 1; k <= NS; k++) cev += mkvet_c[k] + mkvet_i[k];")
	w("  const char *dir = getenv(\"MKVET_OUT\"), *run0 = getenv(\"MKVET_RUN\");")
	w("  if (!dir || !*dir) dir = \".\";")
	w("  char run[1024];")
	w("  /* The run tag keeps the characters that need no JSON escape. */")
	w("  int n = 0;")
	w("  for (const char *c = run0 ? run0 : \"\"; *c && n < 1023; c++)")
	w("    if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr(\"_-.:/+\", *c)) run[n++] = *c;")
	w("  run[n] = 0;")
	w("  /* Written beside and renamed over: a process the job kills while it")
	w("     writes again at its exit (another rank's exit status ends the job)")
	w("     keeps its first records whole. */")
	w("  char name[4096], tmp[4200];")
	w("  snprintf(name, sizeof name, \"%%s/mkvet.%%d.jsonl\", dir, rank);")
	w("  snprintf(tmp, sizeof tmp, \"%%s.tmp\", name);")
	w("  FILE *f = fopen(tmp, \"w\");")
	w("  if (!f) { fprintf(stderr, \"mkvet: cannot write %%s\\n\", tmp); return; }")
	w("  fprintf(f, \"{\\\"type\\\":\\\"run\\\",\\\"run\\\":\\\"%%s\\\",\\\"rank\\\":%%d,\\\"P\\\":%%d,\\\"clock\\\":\\\"clock_gettime\\\",\\\"seconds\\\":%%.17g,\"")
	w("    \"\\\"cpu_seconds\\\":%%.17g,\\\"probe_seconds\\\":%%.17g,\\\"pair_seconds\\\":%%.17g,\\\"count_seconds\\\":%%.17g,\"")
	w("    \"\\\"timer_events\\\":%%lld,\\\"count_events\\\":%%lld,\\\"overhead\\\":%%.17g,\\\"overflow\\\":%%lld,\\\"params\\\":{}}\\n\",")
	w("    run, rank, size, ftprog, fcpu, fprobe, ftpair, ftcount,")
	w("    (long long)ftev, (long long)cev, ftev * ftpair, (long long)overflow);")
	w("  for (k = 1; k <= NS; k++) {")
	w("    if (!mkvet_c[k] && !mkvet_i[k] && !ntimed[k] && !msgs[k] && !rmsgs[k]) continue;")
	w("    fprintf(f, \"{\\\"type\\\":\\\"node\\\",\\\"run\\\":\\\"%%s\\\",\\\"rank\\\":%%d,\\\"P\\\":%%d,\\\"node\\\":\\\"%%s\\\",\\\"count\\\":%%lld,\\\"iters\\\":%%lld,\\\"timed\\\":%%lld,\\\"seconds\\\":%%.17g,\\\"inclusive\\\":%%.17g,\\\"msgs\\\":%%lld,\\\"bytes\\\":%%lld,\\\"recv_msgs\\\":%%lld,\\\"recv_bytes\\\":%%lld,\\\"params\\\":{}}\\n\",")
	w("      run, rank, size, ids[k], (long long)mkvet_c[k], (long long)mkvet_i[k], (long long)ntimed[k], excl[k], incl[k],")
	w("      (long long)msgs[k], (long long)bytes[k], (long long)rmsgs[k], (long long)rbytes[k]);")
	w("  }")
	w("  if (fclose(f) != 0 || rename(tmp, name) != 0) fprintf(stderr, \"mkvet: cannot write %%s\\n\", name);")
	w("}")
	return b.String()
}
