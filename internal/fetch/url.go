package fetch

import (
	"errors"
	"net/url"
	"strings"
)

// maxURLLength bounds the URLs the fetcher accepts.
const maxURLLength = 8192

// ValidateURL parses rawURL and checks the rules every fetched URL (and every
// redirect target) must follow: absolute, scheme http or https, a host, and no
// userinfo. The fragment is dropped. Errors never contain the raw URL, so a
// password in it cannot leak through them.
func ValidateURL(rawURL string) (*url.URL, error) {
	if len(rawURL) > maxURLLength {
		return nil, newError(ReasonBadURL, "URL is longer than 8192 bytes", nil)
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return nil, newError(ReasonBadURL, "URL does not parse: "+parseProblem(err), nil)
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// checkURL applies the scheme, userinfo and host rules to a parsed URL.
func checkURL(u *url.URL) *Error {
	if u.User != nil {
		return newError(ReasonBadURL, "URL must not contain a user name or password", nil)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		e := newError(ReasonBadScheme, "only http and https URLs can be fetched", nil)
		if u.Scheme != "" {
			e.Msg = "scheme " + safeScheme(u.Scheme) + " is not allowed; only http and https URLs can be fetched"
		}
		return e
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return newError(ReasonBadURL, "URL has no host", nil)
	}
	if p := u.Port(); p != "" && !validPort(p) {
		return newError(ReasonBadURL, "URL has an invalid port", nil)
	}
	return nil
}

// parseProblem extracts the cause of a url.Parse failure without the URL
// itself, which url.Error includes and which may hold a password.
func parseProblem(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case strings.Contains(err.Error(), "invalid port"):
		return "invalid port"
	case strings.Contains(err.Error(), "invalid character"):
		return "invalid character in host"
	case strings.Contains(err.Error(), "control character"):
		return "control character in URL"
	case strings.Contains(err.Error(), "userinfo"):
		return "invalid userinfo"
	case strings.Contains(err.Error(), "escape"):
		return "invalid percent-escape"
	}
	return "malformed URL"
}

func safeScheme(s string) string {
	if len(s) > 20 {
		s = s[:20]
	}
	return `"` + s + `"`
}

func validPort(p string) bool {
	if len(p) > 5 {
		return false
	}
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 65535
}

// Redact renders u for messages and logs: scheme, host, path and query are
// kept, userinfo and fragment are dropped, and the value of a query
// parameter is replaced by "REDACTED" when the parameter's name suggests a
// secret (see SecretParam) or the value embeds a URL with user-info. So a
// WCF layout reads "Service.svc?xsd=xsd0" and "?wsdl" stays readable, while
// "?api_key=…" or "?sig=…" do not leak.
func Redact(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	s := c.String()
	if u.RawQuery == "" {
		return s
	}
	return s + "?" + redactQuery(u.RawQuery)
}

// RedactString is Redact for a URL string; an unparsable URL gives "".
func RedactString(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return Redact(u)
}

// secretNameParts are the substrings that make a query parameter name
// suggest a secret, compared case-insensitively.
var secretNameParts = []string{"key", "token", "pass", "pwd", "secret", "sig", "auth", "credential", "session", "code"}

// SecretParam reports whether a query parameter name suggests a secret:
// it contains (case-insensitively) key, token, pass (password, passwd),
// pwd, secret, sig (signature), auth, credential, session or code (Azure
// Functions keys, OAuth codes).
func SecretParam(name string) bool {
	name = strings.ToLower(name)
	for _, p := range secretNameParts {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}

func redactQuery(raw string) string {
	parts := strings.Split(raw, "&")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		rawName, rawValue, hasValue := strings.Cut(p, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			out = append(out, "_=REDACTED")
			continue
		}
		value, verr := url.QueryUnescape(rawValue)
		switch {
		case !hasValue:
			out = append(out, p)
		case SecretParam(name) || verr != nil || embedsUserinfo(value):
			out = append(out, url.QueryEscape(name)+"=REDACTED")
		default:
			out = append(out, p) // as written
		}
	}
	return strings.Join(out, "&")
}

// embedsUserinfo reports whether a query value holds a URL with user-info
// (a redirect target "http://user:pw@host/").
func embedsUserinfo(v string) bool {
	i := strings.Index(v, "://")
	if i < 0 {
		return false
	}
	rest := v[i+3:]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	return strings.Contains(rest, "@")
}
