package wssec

import (
	"crypto"
	"encoding/base64"
	"strings"

	"github.com/s2r-project/s2r/internal/xmlstream"
)

// signedInfo is a parsed canonical ds:SignedInfo.
type signedInfo struct {
	sigHash crypto.Hash
	refs    []signedRef
}

// signedRef is one ds:Reference.
type signedRef struct {
	id        string
	inclusive []string
	enveloped bool
	digest    crypto.Hash
	value     []byte
}

// parseSignedInfo reads the canonical SignedInfo: exactly what was signed.
func parseSignedInfo(canonical []byte) (*signedInfo, error) {
	root, err := xmlstream.Parse(canonical, xmlstream.Limits{MaxDepth: 16, MaxSize: maxSignedInfo})
	if err != nil || !local(root.Name, NSDSig, "SignedInfo") {
		return nil, invalid("the SignedInfo is malformed")
	}
	si := &signedInfo{}
	if m := root.Child(NSDSig, "SignatureMethod"); m != nil {
		switch alg, _ := m.Attr("", "Algorithm"); alg {
		case uriRSASHA256:
			si.sigHash = crypto.SHA256
		case uriRSASHA1:
			si.sigHash = crypto.SHA1
		default:
			return nil, invalid("the signature algorithm %q is not supported", truncateString(alg, 100))
		}
	} else {
		return nil, invalid("the SignedInfo has no SignatureMethod")
	}
	refs := root.ChildrenNamed(NSDSig, "Reference")
	if len(refs) == 0 || len(refs) > maxReferences {
		return nil, invalid("a SignedInfo must hold between 1 and %d references", maxReferences)
	}
	for _, r := range refs {
		ref, err := parseReference(r)
		if err != nil {
			return nil, err
		}
		si.refs = append(si.refs, ref)
	}
	return si, nil
}

func parseReference(r *xmlstream.Element) (signedRef, error) {
	var ref signedRef
	uri, _ := r.Attr("", "URI")
	if len(uri) < 2 || uri[0] != '#' {
		return ref, invalid("only references to an element by Id (URI=\"#id\") are supported")
	}
	ref.id = uri[1:]
	if err := ref.transforms(r.Child(NSDSig, "Transforms")); err != nil {
		return ref, err
	}
	dm := r.Child(NSDSig, "DigestMethod")
	if dm == nil {
		return ref, invalid("a Reference has no DigestMethod")
	}
	switch alg, _ := dm.Attr("", "Algorithm"); alg {
	case uriSHA256:
		ref.digest = crypto.SHA256
	case uriSHA1:
		ref.digest = crypto.SHA1
	default:
		return ref, invalid("the digest algorithm %q is not supported", truncateString(alg, 100))
	}
	dv := r.Child(NSDSig, "DigestValue")
	if dv == nil {
		return ref, invalid("a Reference has no DigestValue")
	}
	v, err := decodeB64(dv.Text)
	if err != nil || len(v) != ref.digest.Size() {
		return ref, invalid("a DigestValue is malformed")
	}
	ref.value = v
	return ref, nil
}

// transforms accepts an optional enveloped-signature transform followed
// by exclusive C14N, which must come last.
func (ref *signedRef) transforms(ts *xmlstream.Element) error {
	if ts == nil || len(ts.Children) == 0 {
		return invalid("a Reference must use the exclusive C14N transform")
	}
	for i, t := range ts.Children {
		alg, _ := t.Attr("", "Algorithm")
		last := i == len(ts.Children)-1
		switch {
		case !local(t.Name, NSDSig, "Transform"):
			return invalid("the Transforms are malformed")
		case alg == NSExcC14N && last:
			if in := t.Child(NSExcC14N, "InclusiveNamespaces"); in != nil {
				pl, _ := in.Attr("", "PrefixList")
				ref.inclusive = strings.Fields(pl)
			}
		case alg == uriEnveloped && !last && !ref.enveloped:
			ref.enveloped = true
		default:
			return invalid("the transform %q is not supported; use exclusive C14N", truncateString(alg, 100))
		}
	}
	return nil
}

// decodeB64 decodes base64 text that may hold white space (line breaks).
func decodeB64(s string) ([]byte, error) {
	if strings.ContainsAny(s, " \t\r\n") {
		s = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
				return -1
			}
			return r
		}, s)
	}
	return base64.StdEncoding.DecodeString(s)
}
