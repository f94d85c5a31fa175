package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"

	"github.com/s2r-project/s2r/internal/fetch"
	"github.com/s2r-project/s2r/internal/model"
	"github.com/s2r-project/s2r/internal/secret"
)

// passwordSetting is the credential setting of the SMTP password.
const passwordSetting = "smtp_password"

// relay is the SMTP relay as the settings describe it, with the password
// opened. It is built per run and never logged.
type relay struct {
	host, tlsMode      string
	port               int
	username, password string
	from               string
	recipients         []string
	policy             fetch.Policy
}

// configError is a relay setting that is missing or unusable; the test
// mail action answers it as 400 naming the setting.
type configError struct{ field, reason string }

func (e *configError) Error() string { return "SMTP is not configured: " + e.field + " " + e.reason }

// relay reads the relay from settings s and opens the stored password.
func (n *Notifier) relay(ctx context.Context, s model.Settings) (relay, error) {
	r := relay{host: s.SMTPHost, port: int(s.SMTPPort), tlsMode: s.SMTPTLSMode, username: s.SMTPUsername,
		from: s.SMTPFrom, recipients: s.AlertRecipients}
	switch {
	case r.host == "":
		return r, &configError{"smtp_host", "must be set"}
	case r.from == "":
		return r, &configError{"smtp_from", "must be set"}
	case len(r.recipients) == 0:
		return r, &configError{"alert_recipients", "must hold at least one address"}
	}
	var err error
	if r.policy.AllowedCIDRs, err = fetch.ParseCIDRs(s.OutboundAllowedCIDRs); err != nil {
		return r, &configError{"outbound_allowed_cidrs", "does not parse"}
	}
	if r.policy.DeniedCIDRs, err = fetch.ParseCIDRs(s.OutboundDeniedCIDRs); err != nil {
		return r, &configError{"outbound_denied_cidrs", "does not parse"}
	}
	if r.username == "" {
		return r, nil
	}
	sealed, set, err := n.cfg.Store.SealedSetting(ctx, passwordSetting)
	if err != nil {
		return r, err
	}
	if !set {
		return r, &configError{passwordSetting, "must be set when smtp_username is set"}
	}
	if n.cfg.Secrets == nil {
		return r, &configError{passwordSetting, "cannot be opened: credential encryption is not configured"}
	}
	plain, err := n.cfg.Secrets.Open(sealed, secret.SettingAAD(passwordSetting))
	if err != nil {
		return r, &configError{passwordSetting, "cannot be decrypted with the current secret key; set it again"}
	}
	r.password = string(plain)
	return r, nil
}

// authPreferences are the SASL mechanisms tried, strongest first. Over a
// plain connection only mechanisms that never send the password are used.
var (
	authPreferencesTLS   = []mail.SMTPAuthType{mail.SMTPAuthSCRAMSHA256, mail.SMTPAuthSCRAMSHA1, mail.SMTPAuthPlain, mail.SMTPAuthLogin, mail.SMTPAuthCramMD5}
	authPreferencesPlain = []mail.SMTPAuthType{mail.SMTPAuthSCRAMSHA256, mail.SMTPAuthSCRAMSHA1, mail.SMTPAuthCramMD5}
)

// deliver sends msgs in one SMTP session and returns one error per
// message (nil: accepted by the relay). Every error is already redacted.
func (n *Notifier) deliver(ctx context.Context, r relay, msgs []*mail.Msg) []error {
	errs := make([]error, len(msgs))
	fail := func(err error) []error { return failAll(len(msgs), err, r) }
	client, err := mail.NewClient(r.host, n.clientOptions(r)...)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(ctx, n.cfg.SendTimeout)
	defer cancel()
	sc, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fail(fmt.Errorf("relay %s: %w", net.JoinHostPort(r.host, strconv.Itoa(r.port)), err))
	}
	defer client.CloseWithSMTPClient(sc)
	sendErr := client.SendWithSMTPClient(sc, msgs...)
	anyOwn := false
	for i, m := range msgs {
		if m.HasSendError() {
			errs[i], anyOwn = errors.New(redact(m.SendError(), r.username, r.password)), true
		}
	}
	if sendErr != nil && !anyOwn {
		return fail(sendErr)
	}
	return errs
}

// clientOptions configures go-mail for r: port, timeouts, TLS mode, the
// guarded dialer, and authentication when a user name is set. Debug
// logging stays off, so no exchange (and no AUTH line) is ever logged.
func (n *Notifier) clientOptions(r relay) []mail.Option {
	tlsConf := n.tlsConfig(r.host)
	opts := []mail.Option{
		mail.WithPort(r.port),
		mail.WithTimeout(n.cfg.SendTimeout),
		mail.WithTLSConfig(tlsConf),
		mail.WithDialContextFunc(guardedDial(r, tlsConf)),
	}
	prefs := authPreferencesTLS
	switch r.tlsMode {
	case model.SMTPTLSImplicit:
		opts = append(opts, mail.WithSSL()) // the TLS handshake happens in guardedDial
	case model.SMTPTLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
		prefs = authPreferencesPlain
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if r.username != "" {
		opts = append(opts, mail.WithUsername(r.username), mail.WithPassword(r.password),
			mail.WithOpportunisticSMTPAuth(prefs...))
	}
	return opts
}

// tlsConfig returns the TLS configuration towards host.
func (n *Notifier) tlsConfig(host string) *tls.Config {
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	if n.cfg.TLSConfig != nil {
		conf = n.cfg.TLSConfig.Clone()
		conf.MinVersion = max(conf.MinVersion, tls.VersionTLS12)
	}
	conf.ServerName = host
	return conf
}

// guardedDial connects through the outbound address policy (loopback,
// link-local and denied ranges refused) and, in implicit TLS mode,
// completes the TLS handshake before the SMTP greeting.
func guardedDial(r relay, tlsConf *tls.Config) mail.DialContextFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		// go-mail writes host:port without brackets, which an IPv6 host
		// cannot be parsed back from: rebuild it from the relay's host.
		if i := strings.LastIndexByte(addr, ':'); i >= 0 {
			addr = net.JoinHostPort(r.host, addr[i+1:])
		}
		conn, err := r.policy.DialContext(ctx, network, addr)
		var fe *fetch.Error
		if errors.As(err, &fe) {
			if fe.Reason == fetch.ReasonBlockedAddress {
				return nil, errors.New(fe.Msg + " by settings outbound_allowed_cidrs / outbound_denied_cidrs")
			}
			return nil, errors.New(fe.Msg)
		}
		if err != nil || r.tlsMode != model.SMTPTLSImplicit {
			return conn, err
		}
		tc := tls.Client(conn, tlsConf)
		hctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := tc.HandshakeContext(hctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("TLS handshake: %w", err)
		}
		return tc, nil
	}
}
