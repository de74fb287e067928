package apt

import "strconv"

// Fortran's intrinsic modules (Fortran 2018 16.10.2, 18.2) as the
// frontend knows them without a module file: their named constants, with
// gfortran's values on x86-64 (kinds are byte sizes there), so that
// real(real64), integer(c_int) and write(output_unit, ...) have their
// kinds and units. Their procedures (c_loc, c_f_pointer, compiler_version)
// are not among them: a call of one is a call of a library.

// intrinsicModuleInts are the integer named constants of each module.
var intrinsicModuleInts = map[string][]struct {
	name  string
	value int64
}{
	"iso_fortran_env": {
		{"int8", 1}, {"int16", 2}, {"int32", 4}, {"int64", 8},
		{"real32", 4}, {"real64", 8}, {"real128", 16},
		{"input_unit", 5}, {"output_unit", 6}, {"error_unit", 0},
		{"iostat_end", -1}, {"iostat_eor", -2}, {"iostat_inquire_internal_unit", 5018},
		{"character_storage_size", 8}, {"numeric_storage_size", 32}, {"file_storage_size", 8},
		{"character_kinds", 1}, {"current_team", -1}, {"initial_team", -2}, {"parent_team", -3},
		{"stat_failed_image", 6001}, {"stat_locked", 2}, {"stat_stopped_image", 6000},
	},
	"iso_c_binding": {
		{"c_int", 4}, {"c_short", 2}, {"c_long", 8}, {"c_long_long", 8}, {"c_signed_char", 1},
		{"c_size_t", 8}, {"c_int8_t", 1}, {"c_int16_t", 2}, {"c_int32_t", 4}, {"c_int64_t", 8},
		{"c_int_least8_t", 1}, {"c_int_least16_t", 2}, {"c_int_least32_t", 4}, {"c_int_least64_t", 8},
		{"c_int_fast8_t", 1}, {"c_int_fast16_t", 8}, {"c_int_fast32_t", 8}, {"c_int_fast64_t", 8},
		{"c_intmax_t", 8}, {"c_intptr_t", 8}, {"c_ptrdiff_t", 8},
		{"c_float", 4}, {"c_double", 8}, {"c_long_double", 10},
		{"c_float_complex", 4}, {"c_double_complex", 8}, {"c_long_double_complex", 10},
		{"c_bool", 1}, {"c_char", 1},
	},
}

// IsIntrinsicModule reports whether name is an intrinsic module the
// frontend defines.
func IsIntrinsicModule(name string) bool {
	_, ok := intrinsicModuleInts[name]
	return ok
}

// IntrinsicModule returns the module name with its named constants, each
// marked Predefined with the module's name; nil for another name.
func IntrinsicModule(name string) *Routine {
	consts, ok := intrinsicModuleInts[name]
	if !ok {
		return nil
	}
	sc := &Scope{}
	integer := Type{Base: TypeInteger, Kind: 4}
	for _, c := range consts {
		var val Expr = &Const{Kind: ConstInt, Text: strconv.FormatInt(max(c.value, -c.value), 10), Type: integer}
		if c.value < 0 {
			val = &Unary{Op: OpNeg, X: val}
		}
		sc.Add(&Var{Name: c.name, Type: integer, Param: val, Predefined: name})
	}
	return &Routine{Name: name, Kind: KindModule, Scope: sc}
}
