package fetch

import (
	"net/url"
	"strings"
	"testing"
)

func TestValidateURL(t *testing.T) {
	tests := []struct {
		raw     string
		want    string
		wantErr string
	}{
		{raw: "http://example.com/svc?wsdl", want: "http://example.com/svc?wsdl"},
		{raw: "HTTPS://Example.com:8443/a#frag", want: "https://Example.com:8443/a"},
		{raw: "  http://10.0.0.5/calc.wsdl ", want: "http://10.0.0.5/calc.wsdl"},
		{raw: "http://[::1]:80/", want: "http://[::1]:80/"},
		{raw: "ftp://example.com/a.wsdl", wantErr: `fetch: scheme "ftp" is not allowed; only http and https URLs can be fetched`},
		{raw: "file:///etc/passwd", wantErr: `fetch: scheme "file" is not allowed; only http and https URLs can be fetched`},
		{raw: "gopher://127.0.0.1:6379/_FLUSHALL", wantErr: `fetch: scheme "gopher" is not allowed; only http and https URLs can be fetched`},
		{raw: "//example.com/a", wantErr: "fetch: only http and https URLs can be fetched"},
		{raw: "example.com/a", wantErr: "fetch: only http and https URLs can be fetched"},
		{raw: "http://user:s3cret@example.com/", wantErr: "fetch: URL must not contain a user name or password"},
		{raw: "http://user@example.com/", wantErr: "fetch: URL must not contain a user name or password"},
		{raw: "http:///path", wantErr: "fetch: URL has no host"},
		{raw: "http:opaque", wantErr: "fetch: URL has no host"},
		{raw: "http://example.com:0/", wantErr: "fetch: URL has an invalid port"},
		{raw: "http://example.com:99999/", wantErr: "fetch: URL has an invalid port"},
		{raw: "http://example.com:8x/", wantErr: "fetch: URL does not parse: invalid port"},
		{raw: "http://exa mple.com/", wantErr: "fetch: URL does not parse: invalid character in host"},
		{raw: "http://example.com/\x7f", wantErr: "fetch: URL does not parse: control character in URL"},
		{raw: "http://us:pa%zz@example.com/", wantErr: "fetch: URL does not parse: invalid percent-escape"},
		{raw: "http://" + strings.Repeat("a", 9000), wantErr: "fetch: URL is longer than 8192 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.raw[:min(len(tt.raw), 40)], func(t *testing.T) {
			u, err := ValidateURL(tt.raw)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("ValidateURL = %v, want error %q", u, tt.wantErr)
				}
				if err.Error() != tt.wantErr {
					t.Errorf("error = %q, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ValidateURL: %v", err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("URL = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"http://example.com/a/b", "http://example.com/a/b"},
		{"http://example.com/svc?wsdl", "http://example.com/svc?wsdl"},
		{"https://example.com/x?token=abc&wsdl&key=v%20w", "https://example.com/x?token=REDACTED&wsdl&key=REDACTED"},
		{"http://u:p@example.com/x#frag", "http://example.com/x"},
		{"http://example.com/x?%zz=1", "http://example.com/x?_=REDACTED"},
		// A WCF layout reads as is; only secret-looking names are hidden.
		{"http://h/Service.svc?xsd=xsd0", "http://h/Service.svc?xsd=xsd0"},
		{"http://h/Service.svc?xsd=xsd1&api_key=k1&X-Amz-Signature=s&sig=a&AccessToken=t&Password=p&client_secret=c&Authorization=b",
			"http://h/Service.svc?xsd=xsd1&api_key=REDACTED&X-Amz-Signature=REDACTED&sig=REDACTED&AccessToken=REDACTED&Password=REDACTED&client_secret=REDACTED&Authorization=REDACTED"},
		{"http://h/f?code=abc&x-amz-credential=c&sessionid=s&pwd=p", "http://h/f?code=REDACTED&x-amz-credential=REDACTED&sessionid=REDACTED&pwd=REDACTED"},
		{"http://h/x?version=2&lang=en%20GB", "http://h/x?version=2&lang=en%20GB"},
		{"http://h/to?u=http://a:pw@h2/x", "http://h/to?u=REDACTED"},
		{"http://h/to?u=http%3A%2F%2Fa%3Apw%40h2%2F", "http://h/to?u=REDACTED"},
		{"http://h/to?u=http://h2/x@y", "http://h/to?u=http://h2/x@y"},
		{"http://h/x?v=%zz", "http://h/x?v=REDACTED"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := Redact(u); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{
		"http://example.com/", "https://[::1]:443/x?wsdl", "http://user:s3cr3tpw@host/",
		"ftp://x", "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest/meta-data",
		"HTTP://EXAMPLE.COM:65535", "http://a:b@c:d@e/", "http://%41:%42@h/", "\x00http://x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ValidateURL(raw)
		if err != nil {
			if ReasonOf(err) == "" {
				t.Fatalf("untyped error %v", err)
			}
			assertNoSecret(t, raw, err.Error())
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("accepted scheme %q", u.Scheme)
		}
		if u.User != nil || u.Hostname() == "" {
			t.Fatalf("accepted %q with user or without host", raw)
		}
		shown := Redact(u)
		assertNoSecret(t, raw, shown)
	})
}

// fixedVocabulary holds the fixed words of error messages; a "password" that
// is a piece of them proves nothing when found in a message.
const fixedVocabulary = "fetch: URL must not contain a user name or password; does not parse: " +
	"invalid port character in host control userinfo percent-escape malformed has no host an " +
	"only http and https URLs can be fetched scheme is not allowed is longer than 8192 bytes REDACTED"

// assertNoSecret fails when the password of raw (when it parses with one)
// appears in text.
func assertNoSecret(t *testing.T, raw, text string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return
	}
	p, ok := u.User.Password()
	if !ok || len(p) < 4 || strings.Contains(fixedVocabulary, p) {
		return
	}
	if strings.Contains(text, p) {
		t.Fatalf("password %q of %q leaked into %q", p, raw, text)
	}
}

// FuzzRedact redacts arbitrary URLs: it must not panic, and in what it
// shows every parameter whose name suggests a secret has the value
// REDACTED, and no user-info survives.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"http://h/Service.svc?xsd=xsd0", "http://h/x?api_key=1&sig=2&wsdl", "http://u:p@h/x?token=a%20b#f",
		"http://h/to?u=http://a:pw@h2/", "http://h/x?%zz=1&k=%zz", "http://h/x?a=1&&b&=c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := url.Parse(raw)
		if err != nil {
			return
		}
		shown := Redact(u)
		// The user-info must not be shown; the same text may stand in
		// the path ("//f@/f@" has user f and path /f@).
		if ui := u.User.String(); u.User != nil && ui != "" && strings.Contains(shown, ui+"@") &&
			!strings.Contains(u.EscapedPath()+"?"+u.RawQuery, ui+"@") {
			t.Fatalf("user-info of %q shown in %q", raw, shown)
		}
		_, query, _ := strings.Cut(shown, "?")
		for _, p := range strings.Split(query, "&") {
			rawName, value, hasValue := strings.Cut(p, "=")
			name, err := url.QueryUnescape(rawName)
			if err == nil && hasValue && SecretParam(name) && value != "REDACTED" {
				t.Fatalf("secret parameter %q of %q shown as %q", name, raw, value)
			}
		}
	})
}
