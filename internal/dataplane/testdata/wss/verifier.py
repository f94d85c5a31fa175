# A SOAP backend that checks the WS-Security header of each request with
# third-party code before answering (publish_wss_test.go): the
# UsernameToken PasswordDigest computed here from the OASIS formula, the
# nonce never seen before, the Timestamp not expired, and the XML signature
# verified by zeep (python-xmlsec / libxmlsec1), which must cover the Body.
# argv: certificate PEM file, expected password. Prints its port, then
# serves on 127.0.0.1 until killed.
import base64, datetime, hashlib, http.server, sys
from lxml import etree
from zeep.wsse.signature import verify_envelope
from zeep.exceptions import SignatureVerificationFailed

CERT, PASSWORD = sys.argv[1], sys.argv[2]
NS = {"s": "http://schemas.xmlsoap.org/soap/envelope/",
      "wsse": "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd",
      "wsu": "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
      "ds": "http://www.w3.org/2000/09/xmldsig#"}
SEEN = set()
OK = (b'<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>'
      b'<AddResponse xmlns="http://example.com/calc"><result>3</result></AddResponse></s:Body></s:Envelope>')


def parse_time(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))


def check(env):
    sec = env.find("s:Header/wsse:Security", NS)
    if sec is None:
        return "InvalidSecurity", "no wsse:Security header"
    ts = sec.find("wsu:Timestamp", NS)
    if ts is None or parse_time(ts.findtext("wsu:Expires", namespaces=NS)) < datetime.datetime.now(datetime.timezone.utc):
        return "MessageExpired", "no Timestamp or it has expired"
    ut = sec.find("wsse:UsernameToken", NS)
    if ut is None:
        return "InvalidSecurity", "no UsernameToken"
    pw = ut.find("wsse:Password", NS)
    nonce, created = ut.findtext("wsse:Nonce", namespaces=NS), ut.findtext("wsu:Created", namespaces=NS)
    if pw is None or not pw.get("Type", "").endswith("#PasswordDigest") or not nonce or not created:
        return "InvalidSecurity", "a PasswordDigest with Nonce and Created is required"
    digest = base64.b64encode(hashlib.sha1(base64.b64decode(nonce) + created.encode() + PASSWORD.encode()).digest())
    if ut.findtext("wsse:Username", namespaces=NS) != "svc-user" or pw.text.encode() != digest:
        return "FailedAuthentication", "unknown user or wrong password"
    if nonce in SEEN:
        return "InvalidSecurity", "replayed nonce"
    SEEN.add(nonce)
    body_id = env.find("s:Body", NS).get("{%s}Id" % NS["wsu"])
    uris = [r.get("URI") for r in sec.findall("ds:Signature/ds:SignedInfo/ds:Reference", NS)]
    if not body_id or "#" + body_id not in uris:
        return "InvalidSecurity", "the Body is not signed"
    try:
        verify_envelope(env, CERT)
    except SignatureVerificationFailed:
        return "FailedCheck", "the signature or a digest does not verify"
    return None


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            problem = check(etree.fromstring(body))
        except Exception as e:  # a malformed request is a security failure too
            problem = ("InvalidSecurity", "unreadable: %s" % type(e).__name__)
        if problem is None:
            status, out = 200, OK
        else:
            status = 500
            out = ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>'
                   '<faultcode xmlns:wsse="%s">wsse:%s</faultcode><faultstring>%s</faultstring></s:Fault></s:Body>'
                   '</s:Envelope>' % (NS["wsse"], problem[0], problem[1])).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args):
        pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
