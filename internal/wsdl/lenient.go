package wsdl

import (
	"fmt"
	"strings"

	"github.com/s2r-project/s2r/internal/xsd"
)

// maxListedOperations bounds the operation names one warning lists.
const maxListedOperations = 5

// warnUnresolved reports what the lenient import tolerated in the schemas:
// it compiles the definitions no operation reached, so that a broken
// definition nothing uses is reported (and left out) rather than passed
// over in silence, then warns once per stand-in, naming the operations
// whose input or output needs it.
func (p *parser) warnUnresolved(defs *Definitions) {
	standIns := map[string]bool{}
	for _, u := range p.partStandIns {
		standIns[u.String()] = true
	}
	for _, err := range p.schemas.CompileRest() {
		if !standIns[err.Error()] {
			p.warnf("%v: definition left out (no imported operation uses it)", err)
		}
	}
	all := append(p.schemas.Unresolved(), p.partStandIns...)
	if len(all) == 0 {
		return
	}
	needed := map[string][]string{}
	seen := map[*xsd.Operation]bool{}
	for _, s := range defs.Services {
		for _, port := range s.Ports {
			for _, op := range port.Operations {
				if seen[op] {
					continue
				}
				seen[op] = true
				for _, u := range op.Unresolved {
					needed[u.String()] = appendOnce(needed[u.String()], op.Name)
				}
			}
		}
	}
	done := map[string]bool{}
	for _, u := range all {
		key := u.String()
		if done[key] {
			continue
		}
		done[key] = true
		ops := needed[key]
		if len(ops) == 0 {
			p.warnf("%s: xs:anyType stands in for it; no imported operation needs it", key)
			continue
		}
		p.warnf("%s: xs:anyType stands in for it, needed by operation %s", key, listOperations(ops))
	}
}

func appendOnce(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

// listOperations renders at most maxListedOperations names.
func listOperations(ops []string) string {
	if len(ops) <= maxListedOperations {
		return strings.Join(ops, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ops[:maxListedOperations], ", "), len(ops)-maxListedOperations)
}

// dedupe drops repeated warnings, keeping the first of each.
func dedupe(warnings []string) []string {
	seen := make(map[string]bool, len(warnings))
	out := warnings[:0]
	for _, w := range warnings {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
