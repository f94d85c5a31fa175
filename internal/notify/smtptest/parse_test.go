package smtptest

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	raw := "Subject: =?UTF-8?q?Gr=C3=BC=C3=9Fe?= from s2r\r\n" +
		"Content-Type: multipart/mixed; boundary=outer\r\n\r\n" +
		"--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\n" +
		"--inner\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"a =3D b, soft=\r\nbreak\r\n" +
		"--inner\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		"PHA+aGk8\r\nL3A+\r\n" +
		"--inner--\r\n--outer--\r\n"
	p, err := Parse(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if p.Subject != "Grüße from s2r" || p.Text != "a = b, softbreak" || p.HTML != "<p>hi</p>" {
		t.Errorf("parsed %q %q %q", p.Subject, p.Text, p.HTML)
	}
	if _, err := Parse(strings.NewReader("Subject: x\r\nContent-Type: text/html\r\n\r\n<p>only html</p>")); err == nil {
		t.Error("a message without text/plain parsed")
	}
}
