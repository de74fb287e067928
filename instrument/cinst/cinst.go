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
// and side) and its time; at MPI_Finalize each rank writes
// $MKVET_OUT/mkvet.<rank>.jsonl. Routines and loops are counted, not timed,
// in this version.
package cinst

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
// headers and the library; {srcs} and {exe} are sweep's placeholders.
func BuildCommand() string {
	flags := func(arg string) string {
		out, err := exec.Command("mpicc", arg).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	return strings.Join(strings.Fields("clang-14 -O1 -Wno-override-module "+flags("-showme:compile")+" {srcs} "+
		flags("-showme:link")+" -lm -o {exe}"), " ")
}

// msgArg says where one side of a transfer is in an MPI call's C
// arguments: the count, the datatype and the peer (-1 for a collective).
type msgArg struct{ side, count, dtype, peer int }

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

// Instrument writes the instrumented copy of a lifted program into dir
// (created; it must not hold an earlier copy) and returns its probe table,
// also written there as instrument.ProbesFile. The module is changed in
// place.
func Instrument(lf *llvmir.Lifted, dir string) (*instrument.Result, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range []string{ProgramFile, RuntimeFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return nil, fmt.Errorf("%s already exists: instrument writes into a new directory", filepath.Join(dir, f))
		}
	}
	in := &inst{m: lf.Module, res: &instrument.Result{Dir: dir, Runtime: RuntimeFile,
		Sources: []string{RuntimeFile, ProgramFile}, Files: []string{RuntimeFile, ProgramFile}}}
	in.declare()
	for _, s := range lf.Sites {
		in.site(s)
	}
	in.lifecycle()
	if err := os.WriteFile(filepath.Join(dir, ProgramFile), []byte(in.m.String()), 0o644); err != nil {
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
	res *instrument.Result
	n   int // fresh names

	counts, iters                     *ir.Global
	msg, enter, exit, started, finish *ir.Func
	slots                             int
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
		in.insertAt(entry, firstNonPhi(entry), in.increment(in.counts, k)...)
	case *apt.Loop:
		if s.Entry == nil || s.Body == nil {
			return
		}
		p := in.slot(n, "loop")
		k := p
		in.insertAt(s.Entry, len(s.Entry.Insts), in.increment(in.counts, k)...)
		in.insertAt(s.Body, firstNonPhi(s.Body), in.increment(in.iters, k)...)
		in.res.Probes[len(in.res.Probes)-1].Iters = true
	case *apt.Comm:
		in.comm(n, s)
	}
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
		in.around(s.Func, s.Call, before, nil)
		return
	case apt.MPIInit:
		in.around(s.Func, s.Call, before, []ir.Instruction{ir.NewCall(in.started)})
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
		c64, pre1 := in.toI64(cnt, false)
		d64, pre2 := in.toI64(dt, true)
		before = append(before, pre1...)
		before = append(before, pre2...)
		before = append(before, ir.NewCall(in.msg, constant.NewInt(types.I32, int64(k)),
			constant.NewInt(types.I32, int64(m.side)), c64, d64, peer))
	}
	p.Timed = true
	before = append(before, ir.NewCall(in.enter, constant.NewInt(types.I32, int64(k))))
	after = append(after, ir.NewCall(in.exit, constant.NewInt(types.I32, int64(k))))
	in.around(s.Func, s.Call, before, after)
}

// lifecycle makes sure every MPI_Init is followed by the runtime's start
// and every MPI_Finalize preceded by its writing of the records, also
// where the call's node was not probed (code the structuring wrote into
// two arms): without them no rank writes anything.
func (in *inst) lifecycle() {
	for _, f := range in.m.Funcs {
		for _, b := range f.Blocks {
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

// runtime is the C runtime: the counters, message counting, timers and
// the writer of the records.
func runtime(probes []instrument.Probe) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("/* mkvet runtime for an instrumented C/C++ program (written by mkvet instrument). */")
	w("#include <mpi.h>")
	w("#include <stdint.h>")
	w("#include <stdio.h>")
	w("#include <stdlib.h>")
	w("#include <string.h>")
	w("#define NS %d", len(probes))
	w("int64_t mkvet_c[%d], mkvet_i[%d];", maxSlots+1, maxSlots+1)
	w("static int64_t msgs[NS + 1], bytes[NS + 1], rmsgs[NS + 1], rbytes[NS + 1], ntimed[NS + 1];")
	w("static double incl[NS + 1], excl[NS + 1], t0, tstart, child[64];")
	w("static int depth, stack[64];")
	w("static const char *ids[NS + 1] = {\"\",")
	for _, p := range probes {
		w("  %q,", p.Node)
	}
	w("};")
	w("void mkvet_msg(int k, int side, int64_t cnt, int64_t dt, int peer) {")
	w("  int sz;")
	w("  if (side <= 2 && peer == MPI_PROC_NULL) return;")
	w("  MPI_Type_size((MPI_Datatype)(intptr_t)dt, &sz);")
	w("  if (side == 1 || side == 3) { msgs[k]++; bytes[k] += cnt * sz; }")
	w("  else { rmsgs[k]++; rbytes[k] += cnt * sz; }")
	w("}")
	w("void mkvet_enter(int k) {")
	w("  if (depth < 64) { stack[depth] = k; child[depth] = 0; }")
	w("  depth++;")
	w("  if (depth <= 64) child[depth - 1] = -MPI_Wtime();")
	w("}")
	w("void mkvet_exit(int k) {")
	w("  depth--;")
	w("  if (depth < 0 || depth >= 64) { if (depth < 0) depth = 0; return; }")
	w("  double el = MPI_Wtime() + child[depth];")
	w("  (void)k;")
	w("  incl[stack[depth]] += el; excl[stack[depth]] += el; ntimed[stack[depth]]++;")
	w("  if (depth > 0) excl[stack[depth - 1]] -= el;")
	w("}")
	w("void mkvet_started(void) { t0 = MPI_Wtime(); tstart = t0; }")
	w("void mkvet_finish(void) {")
	w("  int rank, size, k;")
	w("  double tprog = MPI_Wtime() - t0;")
	w("  MPI_Comm_rank(MPI_COMM_WORLD, &rank);")
	w("  MPI_Comm_size(MPI_COMM_WORLD, &size);")
	w("  const char *dir = getenv(\"MKVET_OUT\"), *run = getenv(\"MKVET_RUN\");")
	w("  if (!dir || !*dir) dir = \".\";")
	w("  if (!run) run = \"\";")
	w("  char name[4096];")
	w("  snprintf(name, sizeof name, \"%%s/mkvet.%%d.jsonl\", dir, rank);")
	w("  FILE *f = fopen(name, \"w\");")
	w("  if (!f) { fprintf(stderr, \"mkvet: cannot write %%s\\n\", name); return; }")
	w("  fprintf(f, \"{\\\"type\\\":\\\"run\\\",\\\"run\\\":\\\"%%s\\\",\\\"rank\\\":%%d,\\\"P\\\":%%d,\\\"clock\\\":\\\"MPI_Wtime\\\",\\\"seconds\\\":%%.9g,\\\"params\\\":{}}\\n\", run, rank, size, tprog);")
	w("  for (k = 1; k <= NS; k++) {")
	w("    if (!mkvet_c[k] && !mkvet_i[k] && !ntimed[k] && !msgs[k] && !rmsgs[k]) continue;")
	w("    fprintf(f, \"{\\\"type\\\":\\\"node\\\",\\\"run\\\":\\\"%%s\\\",\\\"rank\\\":%%d,\\\"P\\\":%%d,\\\"node\\\":\\\"%%s\\\",\\\"count\\\":%%lld,\\\"iters\\\":%%lld,\\\"timed\\\":%%lld,\\\"seconds\\\":%%.9g,\\\"inclusive\\\":%%.9g,\\\"msgs\\\":%%lld,\\\"bytes\\\":%%lld,\\\"recv_msgs\\\":%%lld,\\\"recv_bytes\\\":%%lld}\\n\",")
	w("      run, rank, size, ids[k], (long long)mkvet_c[k], (long long)mkvet_i[k], (long long)ntimed[k], excl[k], incl[k],")
	w("      (long long)msgs[k], (long long)bytes[k], (long long)rmsgs[k], (long long)rbytes[k]);")
	w("  }")
	w("  fclose(f);")
	w("}")
	return b.String()
}
