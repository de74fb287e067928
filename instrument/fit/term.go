package fit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Exponent is a rational exponent Num/Den (Den > 0).
type Exponent struct {
	Num int `json:"num"`
	Den int `json:"den"`
}

// Float returns the exponent's value.
func (e Exponent) Float() float64 {
	if e.Den == 0 {
		return 0
	}
	return float64(e.Num) / float64(e.Den)
}

// String formats e as "2" or "(1/2)".
func (e Exponent) String() string {
	if e.Den == 1 || e.Den == 0 {
		return strconv.Itoa(e.Num)
	}
	return fmt.Sprintf("(%d/%d)", e.Num, e.Den)
}

// Factor is x^Exp · log2(x)^Log of one parameter x.
type Factor struct {
	Param int      `json:"param"`
	Exp   Exponent `json:"exp"`
	Log   int      `json:"log,omitempty"`
}

// Term is a product of factors of the parameters, times one count feature
// when Feature >= 0. A term without factors and feature is the constant 1.
type Term struct {
	Factors []Factor `json:"factors,omitempty"`
	Feature int      `json:"feature"`
}

// Constant is the term 1.
var Constant = Term{Feature: -1}

// FeatureTerm is the term consisting of feature i alone.
func FeatureTerm(i int) Term { return Term{Feature: i} }

// IsConstant reports whether t is the constant term.
func (t Term) IsConstant() bool { return len(t.Factors) == 0 && t.Feature < 0 }

// Eval returns the term's value at the given parameter and feature values.
func (t Term) Eval(params, features []float64) float64 {
	v := 1.0
	for _, f := range t.Factors {
		x := params[f.Param]
		if f.Exp.Num != 0 {
			v *= math.Pow(x, f.Exp.Float())
		}
		for k := 0; k < f.Log; k++ {
			v *= math.Log2(x)
		}
	}
	if t.Feature >= 0 {
		v *= features[t.Feature]
	}
	return v
}

// Format writes the term with the given names: "n^2/p", "log2(p)", "work".
func (t Term) Format(params, features []string) string {
	var num, den []string
	for _, f := range t.Factors {
		name := params[f.Param]
		if f.Exp.Num != 0 {
			e := f.Exp
			neg := e.Num < 0
			if neg {
				e.Num = -e.Num
			}
			s := name
			if !(e.Num == 1 && (e.Den == 1 || e.Den == 0)) {
				s += "^" + e.String()
			}
			if neg {
				den = append(den, s)
			} else {
				num = append(num, s)
			}
		}
		if f.Log > 0 {
			s := "log2(" + name + ")"
			if f.Log > 1 {
				s += "^" + strconv.Itoa(f.Log)
			}
			num = append(num, s)
		}
	}
	if t.Feature >= 0 {
		num = append([]string{features[t.Feature]}, num...)
	}
	s := strings.Join(num, "*")
	if s == "" {
		s = "1"
	}
	if len(den) > 0 {
		if len(den) > 1 {
			s += "/(" + strings.Join(den, "*") + ")"
		} else {
			s += "/" + den[0]
		}
	}
	return s
}

// key identifies a term regardless of factor order.
func (t Term) key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "f%d", t.Feature)
	for _, f := range t.Factors {
		fmt.Fprintf(&b, ";%d:%d/%d:%d", f.Param, f.Exp.Num, f.Exp.Den, f.Log)
	}
	return b.String()
}
