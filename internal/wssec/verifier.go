package wssec

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"time"

	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/xmlstream"
)

// Verifier checks the wsse:Security header of inbound envelopes against a
// service's policy (DESIGN 10.2). It is compiled once from the policy and
// is safe for concurrent use.
type Verifier struct {
	mode             string
	users            map[string]string
	trusted          []*x509.Certificate
	roots            *x509.CertPool
	requireSignature bool
	requireTimestamp bool
	skew             time.Duration
	nonces           NonceStore
	limits           xmlstream.Limits
	now              func() time.Time
}

// Result is what a verified header proves.
type Result struct {
	// Identity is the authenticated username, else the subject of the
	// signing certificate; empty when nothing was authenticated.
	Identity           string
	Username           string
	CertificateSubject string
}

// NewVerifier compiles a policy. nonces remembers UsernameToken nonces; it
// may be nil only when the mode is off. Errors are *model.FieldError.
func NewVerifier(p *model.InboundWSSecurity, nonces NonceStore) (*Verifier, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	v := &Verifier{
		mode: p.Mode, users: map[string]string{}, roots: x509.NewCertPool(),
		requireSignature: p.RequireSignature, requireTimestamp: p.RequireTimestamp,
		skew: time.Duration(p.MaxClockSkewSeconds) * time.Second, nonces: nonces, now: time.Now,
	}
	if v.mode == "" {
		v.mode = model.WSSModeOff
	}
	if p.MaxClockSkewSeconds == 0 {
		v.skew = model.DefaultWSSClockSkewSeconds * time.Second
	}
	if v.mode != model.WSSModeOff && nonces == nil {
		return nil, &model.FieldError{Field: "mode", Index: -1, Reason: "needs a nonce store"}
	}
	for _, u := range p.UsernameTokens {
		v.users[u.Username] = u.Password
	}
	for _, pemText := range p.TrustedCertificatesPEM {
		c, _ := model.ParseCertificatePEM(pemText)
		v.trusted = append(v.trusted, c)
		v.roots.AddCert(c)
	}
	return v, nil
}

// Verify checks envelope's Security header. It returns a *Fault when the
// header is refused, another error only when the nonce store fails. With
// mode off it checks nothing.
func (v *Verifier) Verify(ctx context.Context, envelope []byte) (Result, error) {
	if v.mode == model.WSSModeOff {
		return Result{}, nil
	}
	m, err := scanMessage(envelope, v.limits)
	if err != nil {
		return Result{}, err
	}
	if m.sec == nil {
		if v.mode == model.WSSModeRequired {
			return Result{}, invalid("a wsse:Security header is required")
		}
		return Result{}, nil
	}
	return v.check(ctx, envelope, m)
}

// check applies the policy to a parsed Security header.
func (v *Verifier) check(ctx context.Context, envelope []byte, m *message) (Result, error) {
	sec, now := m.sec, v.now()
	var res Result
	if sec.timestamp != nil {
		if err := v.checkTimestamp(sec.timestamp, now); err != nil {
			return Result{}, err
		}
	} else if v.requireTimestamp {
		return Result{}, invalid("a Timestamp is required")
	}
	if sec.token != nil {
		if err := v.checkUsernameToken(ctx, sec.token, now); err != nil {
			return Result{}, err
		}
		res.Username = sec.token.username
	}
	if sec.sig != nil {
		subject, err := v.checkSignature(envelope, m, now)
		if err != nil {
			return Result{}, err
		}
		res.CertificateSubject = subject
	} else if v.requireSignature {
		return Result{}, invalid("a signature is required")
	}
	res.Identity = res.Username
	if res.Identity == "" {
		res.Identity = res.CertificateSubject
	}
	if v.mode == model.WSSModeRequired && res.Identity == "" {
		return Result{}, invalid("a UsernameToken or a signature is required")
	}
	return res, nil
}

// parseTime reads an xs:dateTime with a time zone.
func parseTime(what, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, invalid("%s is not a date-time with a time zone", what)
	}
	return t, nil
}

func (v *Verifier) checkTimestamp(ts *timestamp, now time.Time) error {
	var created time.Time
	if ts.created != "" {
		var err error
		if created, err = parseTime("Timestamp Created", ts.created); err != nil {
			return err
		}
		if created.After(now.Add(v.skew)) {
			return expired("the Timestamp was created in the future")
		}
	}
	if ts.expires == "" {
		if !created.IsZero() && created.Before(now.Add(-v.skew)) {
			return expired("the Timestamp has no Expires and was created too long ago")
		}
		return nil
	}
	exp, err := parseTime("Timestamp Expires", ts.expires)
	if err != nil {
		return err
	}
	if !created.IsZero() && exp.Before(created) {
		return invalid("the Timestamp expires before it was created")
	}
	if exp.Before(now.Add(-v.skew)) {
		return expired("the Timestamp has expired")
	}
	return nil
}

func (v *Verifier) checkUsernameToken(ctx context.Context, ut *usernameToken, now time.Time) error {
	want, known := v.users[ut.username]
	var ok bool
	switch ut.passwordType {
	case "", uriPasswordText:
		ok = known && subtle.ConstantTimeCompare([]byte(ut.password), []byte(want)) == 1
	case uriPasswordDigest:
		if ut.nonce == "" || ut.created == "" {
			return invalid("a PasswordDigest needs a Nonce and a Created time")
		}
		nonce, err := decodeNonce(ut)
		if err != nil {
			return err
		}
		digest := PasswordDigest(nonce, ut.created, want)
		ok = known && subtle.ConstantTimeCompare([]byte(ut.password), []byte(digest)) == 1
	default:
		return invalid("the password type is not supported")
	}
	if !ok {
		return failed("unknown user or wrong password")
	}
	return v.checkFreshToken(ctx, ut, now)
}

func decodeNonce(ut *usernameToken) ([]byte, error) {
	if ut.nonceEncoding != "" && ut.nonceEncoding != uriBase64Binary {
		return nil, invalid("the Nonce encoding is not supported")
	}
	nonce, err := base64.StdEncoding.DecodeString(ut.nonce)
	if err != nil {
		return nil, invalid("the Nonce is not base64")
	}
	return nonce, nil
}

// checkFreshToken checks the token's Created time and that its nonce was
// not seen before within the clock skew window.
func (v *Verifier) checkFreshToken(ctx context.Context, ut *usernameToken, now time.Time) error {
	until := now.Add(v.skew)
	if ut.created != "" {
		created, err := parseTime("UsernameToken Created", ut.created)
		if err != nil {
			return err
		}
		if created.After(now.Add(v.skew)) || created.Before(now.Add(-v.skew)) {
			return expired("the UsernameToken Created time is outside the allowed clock skew")
		}
		until = created.Add(2 * v.skew)
	}
	if ut.nonce == "" {
		return nil
	}
	seen, err := v.nonces.NonceSeen(ctx, nonceKey(ut), until)
	if err != nil {
		return err
	}
	if seen {
		return invalid("the UsernameToken Nonce was used before")
	}
	return nil
}

// nonceKey is the key a nonce is remembered under: the hex SHA-256 of the
// username and the Nonce text, a fixed-size string any store can keep.
func nonceKey(ut *usernameToken) string {
	h := sha256.New()
	h.Write([]byte(ut.username))
	h.Write([]byte{0})
	h.Write([]byte(ut.nonce))
	return hex.EncodeToString(h.Sum(nil))
}
