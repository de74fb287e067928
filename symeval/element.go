package symeval

import "github.com/mkvet/mkvet/frontend/apt"

// Components below an array element. An element of an array of derived
// type holds its components in its own storage, and so do the scalar
// components of those components: chunk%tiles(t)%t_xmin and
// chunk%tiles(t)%field%x_min are both parts of the element tiles(t). The
// evaluation follows each INTEGER or LOGICAL one as an array of its own
// over the elements (fieldRef), keyed by the array's key and the path of
// components from the element ("%t_xmin", "%field%x_min"), whatever the
// depth of the path.

// elementOf returns the array element e is part of, through scalar
// components (tiles(t)%field gives tiles(t) and "field%"), and the path
// of components from it, each followed by "%"; false when e is no element
// or part of one (a whole array, a component of a scalar, or a pointer's
// target, C's p->f).
func elementOf(e apt.Expr) (*apt.Index, string, bool) {
	switch x := e.(type) {
	case *apt.Index:
		return x, "", true
	case *apt.Component:
		if x.Array || x.Deref {
			return nil, "", false
		}
		ix, path, ok := elementOf(x.Base)
		return ix, path + x.Field + "%", ok
	}
	return nil, "", false
}

// partArg is an actual argument that is a scalar component of an array
// element (fieldRef), bound to a dummy the routine may assign: where the
// element is, so that the dummy's value is stored there on return.
type partArg struct {
	formal string
	key    string
	off    Value
	ok     bool
	t      apt.Type
}

// partKey returns the storage key of the array that holds the component c
// of array elements (elementOf), as fieldRef keys a scalar one and
// storeBlock a whole array.
func (ev *evaluator) partKey(c *apt.Component) (string, bool) {
	ix, path, ok := elementOf(c.Base)
	if !ok {
		return "", false
	}
	k, ok := ev.arrayKey(ix)
	if !ok {
		return "", false
	}
	return k + "%" + path + c.Field, true
}
