package model

import (
	"encoding/json"
	"slices"
	"strings"
)

// ParseSettingsPatch validates a PATCH body, given as its top-level members,
// against the settings table. Members are checked in name order so the
// error is deterministic; the first problem is returned as a *FieldError:
// an unknown name, a wrong type, or an out-of-range value. A credential
// takes a non-empty string (set) or null (clear).
func ParseSettingsPatch(members map[string]json.RawMessage) (SettingsPatch, error) {
	p := SettingsPatch{Values: map[string]json.RawMessage{}, Credentials: map[string]*string{}}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	scratch := DefaultSettings()
	for _, name := range names {
		spec, ok := LookupSetting(name)
		if !ok {
			return SettingsPatch{}, fieldErr(name, "is not a known setting")
		}
		raw := members[name]
		if spec.Kind == KindCredential {
			secret, err := parseCredential(name, raw)
			if err != nil {
				return SettingsPatch{}, err
			}
			p.Credentials[name] = secret
			continue
		}
		if err := spec.Apply(&scratch, raw); err != nil {
			return SettingsPatch{}, err
		}
		canonical, err := json.Marshal(spec.Value(&scratch))
		if err != nil {
			return SettingsPatch{}, fieldErr(name, "cannot be encoded")
		}
		p.Values[name] = canonical
	}
	return p, nil
}

// parseCredential decodes a credential member: a non-empty string or null.
func parseCredential(name string, raw json.RawMessage) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fieldErr(name, "must be a string, or null to clear it")
	}
	if strings.TrimSpace(v) == "" {
		return nil, fieldErr(name, "must not be empty; send null to clear it")
	}
	if len(v) > maxCredentialLen {
		return nil, fieldErr(name, "is too long")
	}
	return &v, nil
}

// ApplyValues sets every plain value of p in s and then checks the rules
// that span settings. Credentials are not touched.
func (p SettingsPatch) ApplyValues(s *Settings) error {
	for _, name := range p.Names() {
		raw, ok := p.Values[name]
		if !ok {
			continue
		}
		spec, _ := LookupSetting(name)
		if err := spec.Apply(s, raw); err != nil {
			return err
		}
	}
	return s.Validate()
}
