package routing

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Renamer applies the rename and omit parts of a mapping
// (docs/decisions-catalog.md) to a decoded JSON document: contract paths
// are member names from the message root joined by "/", arrays are
// transparent (a path applies to every item).
type Renamer struct {
	// rename: contract path → JSON member name.
	rename map[string]string
	// inverse: parent contract path → JSON member name → contract name.
	inverse map[string]map[string]string
	omit    map[string]bool
}

// ParseRenamer reads the rename and omit members of a mapping part; nil
// when the part renames and omits nothing (the identity shape).
func ParseRenamer(part json.RawMessage) (*Renamer, error) {
	if isNull(part) {
		return nil, nil
	}
	var m struct {
		Rename map[string]string `json:"rename"`
		Omit   []string          `json:"omit"`
	}
	if err := json.Unmarshal(part, &m); err != nil {
		return nil, fmt.Errorf("mapping: %w", err)
	}
	if len(m.Rename) == 0 && len(m.Omit) == 0 {
		return nil, nil
	}
	r := &Renamer{rename: m.Rename, inverse: map[string]map[string]string{}, omit: map[string]bool{}}
	for path, name := range m.Rename {
		if name == "" {
			return nil, fmt.Errorf("mapping: rename of %q to an empty name", path)
		}
		parent, child := splitContractPath(path)
		if r.inverse[parent] == nil {
			r.inverse[parent] = map[string]string{}
		}
		r.inverse[parent][name] = child
	}
	for _, p := range m.Omit {
		r.omit[p] = true
	}
	return r, nil
}

func splitContractPath(p string) (parent, child string) {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return "", p
}

func joinPath(parent, child string) string {
	if parent == "" {
		return child
	}
	return parent + "/" + child
}

// FromContract turns contract-named JSON (a converted response) into the
// client's names, dropping omitted members. doc is changed in place.
func (r *Renamer) FromContract(doc any) any {
	r.fromContract(doc, "")
	return doc
}

func (r *Renamer) fromContract(v any, at string) {
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			r.fromContract(item, at)
		}
	case map[string]any:
		renamed := map[string]any{}
		for k, child := range x {
			p := joinPath(at, k)
			if r.omit[p] {
				delete(x, k)
				continue
			}
			r.fromContract(child, p)
			if name, ok := r.rename[p]; ok {
				delete(x, k)
				renamed[name] = child
			}
		}
		for k, child := range renamed {
			x[k] = child
		}
	}
}

// ToContract turns a client's JSON into contract names, dropping members
// at omitted contract paths. doc is changed in place.
func (r *Renamer) ToContract(doc any) any {
	r.toContract(doc, "")
	return doc
}

func (r *Renamer) toContract(v any, at string) {
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			r.toContract(item, at)
		}
	case map[string]any:
		back := map[string]any{}
		inv := r.inverse[at]
		for k, child := range x {
			name := k
			if c, ok := inv[k]; ok {
				name = c
			}
			p := joinPath(at, name)
			if r.omit[p] {
				delete(x, k)
				continue
			}
			r.toContract(child, p)
			if name != k {
				delete(x, k)
				back[name] = child
			}
		}
		for k, child := range back {
			x[k] = child
		}
	}
}

// ContractName returns the contract name of the member the client calls
// name inside the object at contract path parent ("" for the root).
func (r *Renamer) ContractName(parent, name string) string {
	if r != nil {
		if c, ok := r.inverse[parent][name]; ok {
			return c
		}
	}
	return name
}

// Picker keeps only the listed fault paths of a fault's JSON (the pick
// part of a fault mapping): a path such as "detail/code" keeps that member
// and everything under it, plus the objects leading to it; arrays are
// transparent. Members outside "detail" (faultCode, faultString, …) are
// always kept.
type Picker struct {
	paths []string
}

// ParsePicker reads the pick member of a fault mapping; nil when absent
// or empty.
func ParsePicker(part json.RawMessage) (*Picker, error) {
	if isNull(part) {
		return nil, nil
	}
	var m struct {
		Pick []string `json:"pick"`
	}
	if err := json.Unmarshal(part, &m); err != nil {
		return nil, fmt.Errorf("fault mapping: %w", err)
	}
	if len(m.Pick) == 0 {
		return nil, nil
	}
	return &Picker{paths: m.Pick}, nil
}

// Pick prunes fault["detail"] in place to the picked paths.
func (p *Picker) Pick(fault map[string]any) {
	if d, ok := fault["detail"]; ok {
		if p.prune(d, "detail") {
			fault["detail"] = d
		} else {
			delete(fault, "detail")
		}
	}
}

// prune keeps in v what the picked paths reach from at; it reports
// whether anything of v is kept.
func (p *Picker) prune(v any, at string) bool {
	for _, q := range p.paths {
		if q == at || strings.HasPrefix(at, q+"/") {
			return true // picked, or under a picked path
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if !p.prune(child, at+"/"+k) {
				delete(x, k)
			}
		}
		return len(x) > 0 && p.leadsSomewhere(at)
	case []any:
		kept := false
		for _, item := range x {
			kept = p.prune(item, at) || kept
		}
		return kept
	}
	return false
}

func (p *Picker) leadsSomewhere(at string) bool {
	for _, q := range p.paths {
		if strings.HasPrefix(q, at+"/") {
			return true
		}
	}
	return false
}
