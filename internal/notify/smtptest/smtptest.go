// Package smtptest runs a real SMTP server (github.com/emersion/go-smtp) on
// 127.0.0.1 for tests: STARTTLS or implicit TLS with a self-signed
// certificate generated for the test, AUTH PLAIN with one user, and every
// accepted message kept in memory, parsed (headers, decoded subject, text
// and HTML parts) for the test to check.
//
//	srv := smtptest.Start(t, smtptest.Options{Username: "alerts", Password: "s3cret"})
//	... point the SMTP client at srv.Host, srv.Port with srv.ClientTLS() ...
//	msg := srv.WaitMessages(t, 1)[0]
package smtptest

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options configure a test server.
type Options struct {
	// Username and Password, when Username is set, are the one account
	// AUTH PLAIN accepts; MAIL is then refused until the client has
	// authenticated. Without Username no authentication is offered and
	// MAIL is accepted at once.
	Username, Password string
	// ImplicitTLS serves TLS from the first byte (port 465 style) instead
	// of offering STARTTLS.
	ImplicitTLS bool
	// NoTLS serves plain SMTP with no STARTTLS (and AUTH offered over the
	// plain connection when Username is set).
	NoTLS bool
	// EchoCredentials makes a refused AUTH answer quote the user name and
	// password it received, as a hostile or careless server might; tests
	// use it to check that the client never shows them.
	EchoCredentials bool
	// RejectRecipients refuses RCPT for these addresses (550).
	RejectRecipients []string
	// Host is the loopback address to listen on: "127.0.0.1" (the
	// default) or "::1".
	Host string
}

// Message is one message the server accepted.
type Message struct {
	From     string   // envelope sender (MAIL FROM)
	To       []string // envelope recipients (RCPT TO)
	Data     []byte   // the message as received
	AuthUser string   // user that authenticated, "" without AUTH
	TLS      bool     // the session was encrypted when DATA arrived

	Parsed
}

// AuthAttempt is one AUTH PLAIN exchange.
type AuthAttempt struct {
	Username string
	OK       bool
}

// Server is a running test server. Its fields are read-only.
type Server struct {
	Host string // Options.Host: 127.0.0.1 unless set
	Port int
	Addr string // Host:Port
	// RootCAs trusts the server's self-signed certificate.
	RootCAs *x509.CertPool

	opts Options
	srv  *smtp.Server
	lis  net.Listener

	mu       sync.Mutex
	messages []Message
	auths    []AuthAttempt
	arrived  chan struct{}
}

// Start starts a server on 127.0.0.1 (or Options.Host) on a free port;
// it is closed at the end of the test.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{opts: opts, arrived: make(chan struct{}, 1024)}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &session{server: s, conn: c}, nil
	}))
	srv.Domain = "smtptest.localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 10 << 20
	srv.MaxRecipients = 100
	srv.AllowInsecureAuth = opts.NoTLS
	host := opts.Host
	if host == "" {
		host = "127.0.0.1"
	}
	lis, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	if !opts.NoTLS {
		cert, pool, err := selfSigned()
		if err != nil {
			lis.Close()
			t.Fatalf("smtptest: certificate: %v", err)
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		s.RootCAs = pool
		if opts.ImplicitTLS {
			lis = tls.NewListener(lis, srv.TLSConfig)
		}
	}
	s.srv, s.lis = srv, lis
	addr := lis.Addr().(*net.TCPAddr)
	s.Host, s.Port = host, addr.Port
	s.Addr = net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(lis)
	}()
	t.Cleanup(func() {
		s.Close()
		<-done
	})
	return s
}

// ClientTLS returns a client TLS configuration that trusts the server,
// for a client connecting to Host.
func (s *Server) ClientTLS() *tls.Config {
	return &tls.Config{RootCAs: s.RootCAs, ServerName: s.Host, MinVersion: tls.VersionTLS12}
}

// Close stops the server; later connections are refused. It is safe to
// call more than once.
func (s *Server) Close() {
	s.srv.Close()
}

// Messages returns the messages accepted so far, oldest first.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// AuthAttempts returns the AUTH exchanges so far, oldest first.
func (s *Server) AuthAttempts() []AuthAttempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]AuthAttempt(nil), s.auths...)
}

// WaitMessages waits up to 10 seconds until at least n messages have
// arrived and returns them all; it fails the test on timeout.
func (s *Server) WaitMessages(t testing.TB, n int) []Message {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if msgs := s.Messages(); len(msgs) >= n {
			return msgs
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("smtptest: %d messages arrived, want %d", len(s.Messages()), n)
			return nil
		}
	}
}

// session is one SMTP connection.
type session struct {
	server   *Server
	conn     *smtp.Conn
	authUser string
	from     string
	to       []string
}

var _ smtp.AuthSession = (*session)(nil)

func (se *session) AuthMechanisms() []string {
	if se.server.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (se *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		o := se.server.opts
		ok := username == o.Username && password == o.Password && (identity == "" || identity == username)
		se.server.mu.Lock()
		se.server.auths = append(se.server.auths, AuthAttempt{Username: username, OK: ok})
		se.server.mu.Unlock()
		if !ok {
			if o.EchoCredentials {
				return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8},
					Message: "Authentication failed for " + username + " with password " + password}
			}
			return smtp.ErrAuthFailed
		}
		se.authUser = username
		return nil
	}), nil
}

func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if se.server.opts.Username != "" && se.authUser == "" {
		return smtp.ErrAuthRequired
	}
	se.from = from
	return nil
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	for _, r := range se.server.opts.RejectRecipients {
		if r == to {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
		}
	}
	se.to = append(se.to, to)
	return nil
}

func (se *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := se.conn.TLSConnectionState()
	msg := Message{From: se.from, To: append([]string(nil), se.to...), Data: data, AuthUser: se.authUser, TLS: isTLS}
	msg.Parsed, err = Parse(bytes.NewReader(data))
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "Unparsable message: " + err.Error()}
	}
	se.server.mu.Lock()
	se.server.messages = append(se.server.messages, msg)
	se.server.mu.Unlock()
	select {
	case se.server.arrived <- struct{}{}:
	default:
	}
	return nil
}

func (se *session) Reset() { se.from, se.to = "", nil }

func (se *session) Logout() error { return nil }

// errNoText reports a message without a text/plain part.
var errNoText = errors.New("no text/plain part")
