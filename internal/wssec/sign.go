package wssec

import (
	"crypto/rsa"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/s2r-project/s2r/internal/soap"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// timeLayout is how Created and Expires are written: UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

// ids are the fresh wsu:Id values of one signed message.
type ids struct{ ts, ut, bst, body, sig, str string }

// securityParts is a written wsse:Security header: its bytes and where the
// Signature goes (just before its end tag).
type securityParts struct {
	xml   []byte
	sigAt int
}

// Sign returns envelope (SOAP 1.1 or 1.2) with a wsse:Security header as
// the first header block: a Timestamp, a UsernameToken, a
// BinarySecurityToken and a Signature as configured, with a fresh Nonce,
// Created time and wsu:Id values on every call. The rest of the envelope
// is copied byte for byte, except for a wsu:Id (and its namespace
// declaration) added to the Body start tag when the Body is signed.
func (s *Signer) Sign(envelope []byte) ([]byte, error) {
	l, err := scanLayout(envelope, s.limits)
	if err != nil {
		return nil, err
	}
	id, err := s.newIDs(l)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	sec, err := s.securityHeader(l, id, now)
	if err != nil {
		return nil, err
	}
	doc, sigAt := s.splice(envelope, l, sec, id)
	if s.key == nil {
		return doc, nil
	}
	sig, err := s.signature(doc, id)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(doc)+len(sig))
	out = append(out, doc[:sigAt]...)
	out = append(out, sig...)
	return append(out, doc[sigAt:]...), nil
}

// newIDs draws the message's random wsu:Id values; a Body that already has
// a wsu:Id keeps it.
func (s *Signer) newIDs(l *layout) (ids, error) {
	var b [48]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return ids{}, fmt.Errorf("wssec: random ids: %w", err)
	}
	h := func(i int) string { return hex.EncodeToString(b[i*8 : i*8+8]) }
	id := ids{ts: "TS-" + h(0), ut: "UT-" + h(1), bst: "X509-" + h(2), body: "id-" + h(3), sig: "SIG-" + h(4), str: "STR-" + h(5)}
	if l.bodyID != "" {
		id.body = l.bodyID
	}
	return id, nil
}

// securityHeader writes <wsse:Security> without its Signature.
func (s *Signer) securityHeader(l *layout, id ids, now time.Time) (securityParts, error) {
	w := xmlstream.NewWriter(make([]byte, 0, 2048))
	w.Start("wsse", "Security")
	w.NSDecl("wsse", NSWSSE)
	w.NSDecl("wsu", NSWSU)
	if s.cfg.MustUnderstand {
		p := l.envPrefix
		if p == "" || p == "wsse" || p == "wsu" || p == "ds" {
			p = "soapenv"
			w.NSDecl(p, envNS(l.version))
		}
		w.Attr(p, "mustUnderstand", "1")
	}
	if s.cfg.Timestamp != nil {
		s.writeTimestamp(w, id.ts, now)
	}
	if s.cfg.UsernameToken != nil {
		if err := s.writeUsernameToken(w, id.ut, now); err != nil {
			return securityParts{}, err
		}
	}
	if s.key != nil && s.keyID == keyIDBST {
		w.Start("wsse", "BinarySecurityToken")
		w.Attr("", "EncodingType", uriBase64Binary)
		w.Attr("", "ValueType", uriX509v3)
		w.Attr("wsu", "Id", id.bst)
		w.Text(s.certB64)
		w.End("wsse", "BinarySecurityToken")
	}
	w.Raw(nil) // closes the open start tag
	at := w.Len()
	w.End("wsse", "Security")
	return securityParts{xml: w.Bytes(), sigAt: at}, nil
}

func envNS(v soap.Version) string {
	if v == soap.V12 {
		return soap.NS12
	}
	return soap.NS11
}

func (s *Signer) writeTimestamp(w *xmlstream.Writer, id string, now time.Time) {
	w.Start("wsu", "Timestamp")
	w.Attr("wsu", "Id", id)
	simpleElement(w, "wsu", "Created", now.Format(timeLayout))
	simpleElement(w, "wsu", "Expires", now.Add(s.ttl).Format(timeLayout))
	w.End("wsu", "Timestamp")
}

func (s *Signer) writeUsernameToken(w *xmlstream.Writer, id string, now time.Time) error {
	w.Start("wsse", "UsernameToken")
	w.Attr("wsu", "Id", id)
	simpleElement(w, "wsse", "Username", s.cfg.UsernameToken.Username)
	if !s.digest {
		w.Start("wsse", "Password")
		w.Attr("", "Type", uriPasswordText)
		w.Text(s.password)
		w.End("wsse", "Password")
		w.End("wsse", "UsernameToken")
		return nil
	}
	var nonce [16]byte
	if _, err := io.ReadFull(s.random, nonce[:]); err != nil {
		return fmt.Errorf("wssec: nonce: %w", err)
	}
	created := now.Format(timeLayout)
	w.Start("wsse", "Password")
	w.Attr("", "Type", uriPasswordDigest)
	w.Text(PasswordDigest(nonce[:], created, s.password))
	w.End("wsse", "Password")
	w.Start("wsse", "Nonce")
	w.Attr("", "EncodingType", uriBase64Binary)
	w.Text(base64.StdEncoding.EncodeToString(nonce[:]))
	w.End("wsse", "Nonce")
	simpleElement(w, "wsu", "Created", created)
	w.End("wsse", "UsernameToken")
	return nil
}

func simpleElement(w *xmlstream.Writer, prefix, local, text string) {
	w.Start(prefix, local)
	w.Text(text)
	w.End(prefix, local)
}

// splice copies envelope with the Security header inserted first in the
// Header (made when there is none) and the Body's wsu:Id added. It returns
// the document and where the Signature goes in it.
func (s *Signer) splice(env []byte, l *layout, sec securityParts, id ids) ([]byte, int) {
	out := make([]byte, 0, len(env)+len(sec.xml)+256)
	var at int
	switch {
	case l.hdrStart < 0:
		out = append(out, env[:l.envTagEnd]...)
		out = appendTag(out, "<", l.envPrefix, "Header>")
		at = len(out)
		out = append(out, sec.xml...)
		out = appendTag(out, "</", l.envPrefix, "Header>")
		out = append(out, env[l.envTagEnd:l.bodyAttrAt]...)
	case l.hdrEmpty:
		out = append(out, env[:l.hdrTagEnd-2]...)
		out = append(out, '>')
		at = len(out)
		out = append(out, sec.xml...)
		out = appendTag(out, "</", l.hdrPrefix, "Header>")
		out = append(out, env[l.hdrTagEnd:l.bodyAttrAt]...)
	default:
		out = append(out, env[:l.hdrTagEnd]...)
		at = len(out)
		out = append(out, sec.xml...)
		out = append(out, env[l.hdrTagEnd:l.bodyAttrAt]...)
	}
	if s.key != nil && s.signBody && l.bodyID == "" {
		out = appendBodyID(out, l, id.body)
	}
	return append(out, env[l.bodyAttrAt:]...), at + sec.sigAt
}

func appendTag(b []byte, open, prefix, rest string) []byte {
	b = append(b, open...)
	if prefix != "" {
		b = append(b, prefix...)
		b = append(b, ':')
	}
	return append(b, rest...)
}

// appendBodyID writes the Body's wsu:Id attribute, declaring the prefix
// unless the Body binds it already.
func appendBodyID(b []byte, l *layout, id string) []byte {
	prefix := "wsu"
	if l.bodyWSU != "" && l.bodyWSU != NSWSU {
		prefix = "s2rwsu"
	}
	if l.bodyWSU != NSWSU {
		b = append(b, " xmlns:"...)
		b = append(b, prefix...)
		b = append(b, `="`+NSWSU+`"`...)
	}
	b = append(b, ' ')
	b = append(b, prefix...)
	b = append(b, `:Id="`...)
	b = append(b, id...)
	return append(b, '"')
}

// signRSA signs the canonical SignedInfo.
func (s *Signer) signRSA(signedInfo []byte) ([]byte, error) {
	h := s.sigHash.New()
	h.Write(signedInfo)
	return rsa.SignPKCS1v15(nil, s.key, s.sigHash, h.Sum(nil))
}
