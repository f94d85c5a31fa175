package notify

import (
	"strconv"
	"strings"
	"time"

	"github.com/wneessen/go-mail"

	"github.com/s2r-project/s2r/internal/model"
)

// message is the content of one mail.
type message struct {
	subject, text, html string
}

// maxSubjectURI bounds the service URI quoted in a subject.
const maxSubjectURI = 160

// messageData feeds the mail templates.
type messageData struct {
	Kind           string
	RowID          int64
	ServiceURI     string
	TenantID       string // shown only when not the default tenant
	State          string
	Since          string
	WindowFrom     string
	WindowTo       string
	Calls          int64
	Failures       int64
	FailurePct     string
	MinCalls       int64
	PctThreshold   string
	CountThreshold int64
	Reasons        []string
	ConsoleURL     string
	Absolute       bool // ConsoleURL is a full URL
	Cooldown       int64
	// Test mails.
	Actor, Relay, TLSMode string
}

// alertMessage composes the mail of step s, evaluated at now.
func (n *Notifier) alertMessage(s step, settings model.Settings, now time.Time) message {
	c := s.cand
	d := messageData{
		Kind: s.mail, RowID: c.RowID, ServiceURI: c.ServiceURI, State: strings.ToUpper(s.state.State),
		Since: stamp(s.state.ChangedAt), WindowFrom: stamp(now.Add(-time.Hour)), WindowTo: stamp(now),
		Calls: c.Calls1h, Failures: c.Failures1h, FailurePct: pct(c.FailurePct()),
		MinCalls: c.MinCalls1h, PctThreshold: pct(c.FailurePctThreshold), CountThreshold: c.FailureCountThreshold,
		Cooldown: settings.AlertCooldownMinutes,
	}
	if c.TenantID != model.DefaultTenant {
		d.TenantID = c.TenantID
	}
	if c.Triggered() {
		if c.FailurePct() >= c.FailurePctThreshold {
			d.Reasons = append(d.Reasons, "failure rate "+d.FailurePct+" % >= "+d.PctThreshold+" %")
		}
		if c.Failures1h >= c.FailureCountThreshold {
			d.Reasons = append(d.Reasons, "failures "+strconv.FormatInt(c.Failures1h, 10)+" >= "+strconv.FormatInt(c.FailureCountThreshold, 10))
		}
	}
	d.ConsoleURL, d.Absolute = n.consoleURL("/console/discovery?row=" + strconv.FormatInt(c.RowID, 10))
	word := "ALERT"
	if s.mail == model.AlertMailRecovery {
		word = "RECOVERED"
	}
	subject := "[s2r] " + word + " " + shorten(c.ServiceURI, maxSubjectURI) + ": " + d.FailurePct + "% failures (" +
		strconv.FormatInt(c.Failures1h, 10) + " of " + strconv.FormatInt(c.Calls1h, 10) + " calls in 1h)"
	return render(subject, d)
}

// testMessage composes a test mail sent by actor through r.
func (n *Notifier) testMessage(r relay, actor string) message {
	d := messageData{Kind: model.AlertMailTest, Actor: actor, Relay: r.host + ":" + strconv.Itoa(r.port), TLSMode: r.tlsMode}
	d.ConsoleURL, d.Absolute = n.consoleURL("/console/settings")
	return render("[s2r] Test alert mail", d)
}

// consoleURL returns path under S2R_PUBLIC_BASE_URL, or path alone when
// the base URL is not set.
func (n *Notifier) consoleURL(path string) (string, bool) {
	if n.cfg.PublicBaseURL == "" {
		return path, false
	}
	return strings.TrimRight(n.cfg.PublicBaseURL, "/") + path, true
}

func render(subject string, d messageData) message {
	var text, html strings.Builder
	// The templates are fixed and their data plain values: they cannot fail.
	_ = textTemplate.ExecuteTemplate(&text, d.Kind, d)
	_ = htmlTemplate.ExecuteTemplate(&html, d.Kind, d)
	return message{subject: oneLine(subject), text: text.String(), html: html.String()}
}

// newMsg builds the mail of m from r's sender to r's recipients.
func newMsg(r relay, m message, now time.Time) (*mail.Msg, error) {
	msg := mail.NewMsg(mail.WithNoDefaultUserAgent())
	if err := msg.From(r.from); err != nil {
		return nil, err
	}
	if err := msg.To(r.recipients...); err != nil {
		return nil, err
	}
	msg.Subject(m.subject)
	msg.SetDateWithValue(now)
	msg.SetMessageID()
	msg.SetGenHeader(mail.Header("Auto-Submitted"), "auto-generated") // RFC 3834: no auto-replies
	msg.SetBodyString(mail.TypeTextPlain, m.text)
	msg.AddAlternativeString(mail.TypeTextHTML, m.html)
	return msg, nil
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func pct(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// shorten cuts s to at most n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// oneLine replaces control characters, so a subject stays one header line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
