package llvmir

import (
	"strconv"
	"strings"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
)

// Source variables of one function that share a name. C lets an inner
// scope declare a name again (int r as a loop counter, double *r a
// residual vector declared after the loop); the APT has one scope per
// routine, so two such variables would be one, of the type declared
// first, and a count read through the other would refer to an array used
// as a number. Variables of the same name and type share it as before
// (the counters of successive for loops); one whose type differs gets a
// name of its own, the name with a suffix.

// srcVarName returns the APT name of the source variable lv.
func (x *fn) srcVarName(lv *metadata.DILocalVariable) string {
	if n, ok := x.lvNames[lv]; ok {
		return n
	}
	base := strings.ToLower(cleanName(lv.Name))
	key := diTypeKey(lv.Type, 0)
	name := base
	for i := 2; ; i++ {
		k, seen := x.nameTypes[name]
		if !seen || k == key {
			break
		}
		name = base + "_" + strconv.Itoa(i)
	}
	x.lvNames[lv] = name
	x.nameTypes[name] = key
	return name
}

// diTypeKey renders a debug-info type as far as it decides the variable's
// APT type: qualifiers and typedefs dropped (const int and int are one
// variable's type), pointers and arrays by what they hold.
func diTypeKey(f metadata.Field, depth int) string {
	if depth > 8 {
		return "?"
	}
	switch t := f.(type) {
	case nil:
		return "void"
	case *metadata.DIBasicType:
		return "b:" + t.Name
	case *metadata.DIDerivedType:
		switch t.Tag {
		case enum.DwarfTagTypedef, enum.DwarfTagConstType, enum.DwarfTagVolatileType,
			enum.DwarfTagRestrictType, enum.DwarfTagAtomicType:
			return diTypeKey(t.BaseType, depth+1)
		case enum.DwarfTagPointerType, enum.DwarfTagReferenceType, enum.DwarfTagRvalueReferenceType:
			return "p:" + diTypeKey(t.BaseType, depth+1)
		}
		return "d" + strconv.Itoa(int(t.Tag)) + ":" + diTypeKey(t.BaseType, depth+1)
	case *metadata.DICompositeType:
		if t.Tag == enum.DwarfTagArrayType {
			return "a:" + diTypeKey(t.BaseType, depth+1)
		}
		if t.Identifier != "" {
			return "c:" + t.Identifier
		}
		return "c" + strconv.Itoa(int(t.Tag)) + ":" + t.Name + "@" + strconv.FormatInt(t.Line, 10)
	case *metadata.DISubroutineType:
		return "f"
	}
	return "?"
}
