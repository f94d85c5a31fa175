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

// Redact renders u for messages and logs: scheme, host and path are kept,
// userinfo and fragment are dropped, and query values are replaced by
// "REDACTED" (names are kept, so "?wsdl" stays readable).
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

func redactQuery(raw string) string {
	parts := strings.Split(raw, "&")
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		name, _, hasValue := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = url.QueryEscape(n)
		} else {
			name = "_"
		}
		if hasValue {
			name += "=REDACTED"
		}
		out = append(out, name)
	}
	return strings.Join(out, "&")
}
