package store

import (
	"strconv"
	"strings"
)

// sqlArgs collects the arguments of a statement, handing out their
// numbered placeholders; a placeholder may be used several times.
type sqlArgs struct{ list []any }

// add appends v and returns its placeholder.
func (a *sqlArgs) add(v any) string {
	a.list = append(a.list, v)
	return "$" + strconv.Itoa(len(a.list))
}

// in returns "col IN (...)" over vals, each a new argument.
func (a *sqlArgs) in(col string, vals []string) string {
	ph := make([]string, len(vals))
	for i, v := range vals {
		ph[i] = a.add(v)
	}
	return col + " IN (" + strings.Join(ph, ",") + ")"
}

// likeEscaper escapes the LIKE wildcards of a user's substring; patterns
// built with it use ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// containsPattern is the case-folded LIKE pattern of "contains sub".
func containsPattern(sub string) string {
	return "%" + likeEscaper.Replace(strings.ToLower(sub)) + "%"
}

// whereClause builds the WHERE clause of a list query: conditions joined by
// AND, with their arguments numbered $1, $2, ... in the order added.
type whereClause struct {
	args  sqlArgs
	conds []string
}

// add appends cond, each "?" of which stands for arg (one argument however
// many times it is used).
func (w *whereClause) add(cond string, arg any) {
	w.conds = append(w.conds, strings.ReplaceAll(cond, "?", w.args.add(arg)))
}

// literal appends a condition that takes no argument.
func (w *whereClause) literal(cond string) {
	w.conds = append(w.conds, cond)
}

// equal appends "col = v" for each pair whose value is not empty.
func (w *whereClause) equal(pairs ...[2]string) {
	for _, p := range pairs {
		if p[1] != "" {
			w.add(p[0]+" = ?", p[1])
		}
	}
}

// in appends "col IN (...)" over vals when there are any.
func (w *whereClause) in(col string, vals []string) {
	if len(vals) > 0 {
		w.conds = append(w.conds, w.args.in(col, vals))
	}
}

// clause returns " WHERE ..." ("" when there is no condition) and the
// arguments.
func (w *whereClause) clause() (string, []any) {
	if len(w.conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(w.conds, " AND "), w.args.list
}
