# A SOAP backend answering Download with its file as an attachment
# (publish_attachments_test.go). POST /mtom answers an MTOM/XOP package
# (application/xop+xml root, binary part, xop:Include), POST /swa a SOAP
# with Attachments package built by Python's email library (text/xml root,
# base64 part, href="cid:"). argv: the attachment size in bytes; its bytes
# are i % 251. Prints its port, then serves on 127.0.0.1 until killed.
import http.server, sys
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.policy import HTTP

DATA = bytes(i % 251 for i in range(int(sys.argv[1])))
SOAP = "http://schemas.xmlsoap.org/soap/envelope/"


def envelope(data_element):
    return ('<s:Envelope xmlns:s="%s"><s:Body><f:DownloadResponse xmlns:f="http://example.com/files">'
            '<f:name>report.bin</f:name>%s</f:DownloadResponse></s:Body></s:Envelope>' % (SOAP, data_element))


def mtom():
    b = "MIMEBoundary_s2r_7d1c"
    root = envelope('<f:data><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" '
                    'href="cid:file%40s2r"/></f:data>').encode()
    body = b"".join([
        b"--" + b.encode() + b"\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n"
        b"Content-Transfer-Encoding: binary\r\nContent-ID: <root.message@s2r>\r\n\r\n", root,
        b"\r\n--" + b.encode() + b"\r\nContent-Type: application/octet-stream\r\n"
        b"Content-Transfer-Encoding: binary\r\nContent-ID: <file@s2r>\r\n\r\n", DATA,
        b"\r\n--" + b.encode() + b"--\r\n"])
    ct = ('multipart/related; type="application/xop+xml"; boundary="%s"; start="<root.message@s2r>"; '
          'start-info="text/xml"' % b)
    return ct, body


def swa():
    msg = MIMEMultipart("related", type="text/xml", start="<root@s2r>")
    root = MIMEText(envelope('<f:data href="cid:file@s2r"/>'), "xml", "utf-8")
    root.add_header("Content-ID", "<root@s2r>")
    part = MIMEApplication(DATA)
    part.add_header("Content-ID", "<file@s2r>")
    msg.attach(root)
    msg.attach(part)
    raw = msg.as_bytes(policy=HTTP)
    head, body = raw.split(b"\r\n\r\n", 1)
    ct = [l for l in head.decode().replace("\r\n ", " ").replace("\r\n\t", " ").split("\r\n")
          if l.lower().startswith("content-type:")][0].split(":", 1)[1].strip()
    return ct, body


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        ct, body = mtom() if self.path.startswith("/mtom") else swa()
        self.send_response(200)
        self.send_header("Content-Type", ct)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except ConnectionError:
            pass  # the client stops reading an answer over its size limit

    def log_message(self, *args):
        pass


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(srv.server_address[1], flush=True)
srv.serve_forever()
