package wsdl

import (
	"fmt"

	"github.com/s2r-project/s2r/internal/xsd"
)

// checkContracts walks every compiled message of defs and reports the
// first broken invariant the converters rely on: every element has a
// name and a type, particles have sane kinds and bounds, simple types have
// a builtin, arrays have an item.
func checkContracts(defs *Definitions) error {
	seen := map[*xsd.Type]bool{}
	for _, op := range defs.Operations() {
		msgs := []*xsd.Message{op.Input, op.Output}
		for _, f := range op.Faults {
			msgs = append(msgs, f.Message)
		}
		for _, m := range msgs {
			if m == nil {
				continue
			}
			if m.Wrapped && m.Wrapper == nil {
				return fmt.Errorf("%s: wrapped message %s without wrapper", op.Name, m.Name.Local)
			}
			parts := append(append([]*xsd.Part{}, m.Parts...), m.Headers...)
			for _, p := range parts {
				if (p.Element == nil) == (p.Type == nil) {
					return fmt.Errorf("%s: part %s needs exactly one of element and type", op.Name, p.Name)
				}
				if p.Element != nil {
					if err := checkElement(p.Element, seen); err != nil {
						return fmt.Errorf("%s: %w", op.Name, err)
					}
				} else if err := checkType(p.Type, seen); err != nil {
					return fmt.Errorf("%s: %w", op.Name, err)
				}
			}
			if m.Wrapper != nil {
				if err := checkElement(m.Wrapper, seen); err != nil {
					return fmt.Errorf("%s: %w", op.Name, err)
				}
			}
		}
	}
	return nil
}

func checkElement(e *xsd.Element, seen map[*xsd.Type]bool) error {
	if e.Name.Local == "" {
		return fmt.Errorf("element without name")
	}
	if e.Type == nil {
		return fmt.Errorf("element %s without type", e.Name.Local)
	}
	for _, s := range e.Substitutes {
		if err := checkElement(s, seen); err != nil {
			return err
		}
	}
	return checkType(e.Type, seen)
}

func checkType(t *xsd.Type, seen map[*xsd.Type]bool) error {
	if seen[t] {
		return nil
	}
	seen[t] = true
	if t.Simple != nil && t.Simple.Builtin == "" {
		return fmt.Errorf("type %s: simple type without builtin", t.Name.Local)
	}
	for _, a := range t.Attributes {
		if a.Type == nil || a.Name.Local == "" {
			return fmt.Errorf("type %s: attribute without name or type", t.Name.Local)
		}
	}
	if t.ArrayItem != nil {
		if err := checkElement(t.ArrayItem, seen); err != nil {
			return err
		}
	}
	for _, d := range t.Derived {
		if err := checkType(d, seen); err != nil {
			return err
		}
	}
	if t.Content != nil {
		return checkParticle(t.Content, seen)
	}
	return nil
}

func checkParticle(p *xsd.Particle, seen map[*xsd.Type]bool) error {
	if p.MinOccurs < 0 || (p.MaxOccurs != xsd.Unbounded && p.MaxOccurs < 0) {
		return fmt.Errorf("particle bounds %d..%d", p.MinOccurs, p.MaxOccurs)
	}
	switch p.Kind {
	case xsd.ParticleElement:
		return checkElement(p.Element, seen)
	case xsd.ParticleAny:
		if p.Wildcard == nil {
			return fmt.Errorf("any without wildcard")
		}
	case xsd.ParticleSequence, xsd.ParticleChoice, xsd.ParticleAll:
		for _, c := range p.Children {
			if err := checkParticle(c, seen); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("particle kind %d", p.Kind)
	}
	return nil
}
