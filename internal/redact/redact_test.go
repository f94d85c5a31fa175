package redact

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/s2r-project/s2r/internal/model"
)

const canary = "CANARY-s3cr3t"

func defaultRedactor() *Redactor {
	return New(model.DefaultDebugRedactNames(), []string{"X-Backend-Key"})
}

func TestPayload(t *testing.T) {
	r := defaultRedactor()
	tests := []struct{ name, in, want string }{
		{"wsse 1.1 username token",
			`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><wsse:Security><wsse:UsernameToken>` +
				`<wsse:Username>bob</wsse:Username><wsse:Password Type="x#PasswordText">` + canary + `</wsse:Password>` +
				`<wsse:Nonce EncodingType="b64">` + canary + `</wsse:Nonce></wsse:UsernameToken></wsse:Security></s:Header>` +
				`<s:Body><m:Add><a>1</a></m:Add></s:Body></s:Envelope>`,
			`<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Header><wsse:Security><wsse:UsernameToken>` +
				`<wsse:Username>bob</wsse:Username><wsse:Password Type="x#PasswordText">***redacted***</wsse:Password>` +
				`<wsse:Nonce EncodingType="b64">***redacted***</wsse:Nonce></wsse:UsernameToken></wsse:Security></s:Header>` +
				`<s:Body><m:Add><a>1</a></m:Add></s:Body></s:Envelope>`},
		{"binary security token and soap 1.2",
			`<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Header><o:BinarySecurityToken a='>'>` + canary +
				`</o:BinarySecurityToken></env:Header><env:Body/></env:Envelope>`,
			`<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Header><o:BinarySecurityToken a='>'>***redacted***` +
				`</o:BinarySecurityToken></env:Header><env:Body/></env:Envelope>`},
		{"names from the setting, any case, nested and CDATA",
			`<r><ApiKey>` + canary + `</ApiKey><SECRET><secret>x</secret><![CDATA[</SECRET>]]>y</SECRET><tokenType>t</tokenType></r>`,
			`<r><ApiKey>***redacted***</ApiKey><SECRET>***redacted***</SECRET><tokenType>t</tokenType></r>`},
		{"unterminated element masked to the end", `<a><password>` + canary + `...`, `<a><password>***redacted***`},
		{"self-closing and empty", `<a><password/><token></token></a>`, `<a><password/><token></token></a>`},
		{"comment is skipped", `<a><!-- <password> --><b>1</b></a>`, `<a><!-- <password> --><b>1</b></a>`},
		{"json $headers", `{"$headers": {"Security": {"UsernameToken": {"Username": "bob", "Password": "` + canary +
			`", "Nonce": {"$value": "` + canary + `"}}}, "token": 5}, "password": "kept"}`,
			`{"$headers": {"Security": {"UsernameToken": {"Username": "bob", "Password": "***redacted***", "Nonce": "***redacted***"}}, ` +
				`"token": "***redacted***"}, "password": "kept"}`},
		{"json escaped member name", `{"\u0024headers":{"Authorization":"` + canary + `"}}`, `{"\u0024headers":{"Authorization":"***redacted***"}}`},
		{"json without headers untouched", `{"password":"x"}`, `{"password":"x"}`},
		{"invalid json with headers cut", `{"$headers":{"token":"` + canary + `" "x"`, `{"$headers":{"token":"***redacted***"` + unparsedTail},
		{"invalid json with headers first cut", `{"$headers":{"a":1,,"token":"` + canary + `"}}`, `{"$headers":{"a":1` + unparsedTail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(r.Payload([]byte(tt.in)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if strings.Contains(got, canary) {
				t.Errorf("canary left in %s", got)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	r := defaultRedactor()
	in := http.Header{
		"Authorization":         {"Basic " + canary},
		"Cookie":                {canary, canary},
		"X-S2R-Callback-Secret": {canary},
		"X-Api-Key":             {canary},
		"X-Backend-Key":         {canary},
		"Token":                 {canary},
		"Content-Type":          {"text/xml"},
	}
	got := r.Headers(in)
	want := http.Header{
		"Authorization": {Mask}, "Cookie": {Mask, Mask}, "X-S2R-Callback-Secret": {Mask}, "X-Api-Key": {Mask},
		"X-Backend-Key": {Mask}, "Token": {Mask}, "Content-Type": {"text/xml"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if in.Get("Authorization") != "Basic "+canary {
		t.Error("input modified")
	}
}

// FuzzPayload checks that redaction never panics, keeps masked payloads
// free of a sensitive element's content and is idempotent.
func FuzzPayload(f *testing.F) {
	for _, s := range []string{
		`<a><password>x</password></a>`, `{"$headers":{"token":"x"}}`, `<p:Nonce a="/>">x<p:Nonce>y</p:Nonce>`,
		`<![CDATA[<password>]]>`, `{"$headers":[{"token":1}]}`, `<a><token>x<!--`, `--b\r\n<password>x</password>`,
	} {
		f.Add([]byte(s))
	}
	r := defaultRedactor()
	f.Fuzz(func(t *testing.T, b []byte) {
		out := r.Payload(b)
		if again := r.Payload(out); string(again) != string(out) && firstByte(b) != '{' && firstByte(b) != '[' {
			t.Fatalf("not idempotent:\n%q\n%q", out, again)
		}
	})
}
