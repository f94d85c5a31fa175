"""wss_client.py WSDL_URL ACTION USER PASSWORD [KEY_PEM CERT_PEM]: Debian's
python3-zeep as a WS-Security client of s2r's consume services in the
interop tests (internal/tests/interop/wssecurity_test.go).

Loads the orders WSDL from WSDL_URL and, for the call actions, calls
GetOrder(id="7") on its SOAP 1.1 port with zeep's WS-Security plugins,
printing {"result": ...} or {"fault": {"code", "subcodes", "message"}}:
  text       UsernameToken PasswordText
  digest     UsernameToken PasswordDigest (Nonce and Created)
  binsig     BinarySignature by KEY_PEM/CERT_PEM over the Body
  sig        Signature by KEY_PEM/CERT_PEM over the Body (the certificate
             in a SecurityTokenReference's X509Data, with IssuerSerial)
  expired    UsernameToken with a Timestamp that expired an hour ago
  text12     PasswordText on the SOAP 1.2 port
The envelope actions print {"envelope": "..."}, the message zeep would send,
for the test to post as it is:
  digest-envelope   a PasswordDigest envelope (to be replayed)
  wrapped-envelope  a BinarySignature envelope whose signed Body was moved
                    into a header and replaced by another Body (signature
                    wrapping)
"""
import datetime
import json
import sys

from lxml import etree
import zeep
import zeep.exceptions
import zeep.helpers
from zeep.wsse import utils
from zeep.wsse.signature import BinarySignature, Signature
from zeep.wsse.username import UsernameToken

SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"


class SignOnly(BinarySignature):
    """BinarySignature that does not ask s2r's answers to be signed."""

    def verify(self, envelope):
        return envelope


class SignOnlyX509(Signature):
    """Signature that does not ask s2r's answers to be signed."""

    def verify(self, envelope):
        return envelope


def timestamp(created, expires):
    fmt = lambda t: t.replace(microsecond=0).isoformat()
    return utils.WSU.Timestamp(utils.WSU.Created(fmt(created)), utils.WSU.Expires(fmt(expires)))


def plugin(action, user, password, key, cert):
    now = datetime.datetime.now(datetime.timezone.utc)
    if action in ("text", "text12"):
        return UsernameToken(user, password)
    if action in ("digest", "digest-envelope"):
        return UsernameToken(user, password, use_digest=True)
    if action in ("binsig", "wrapped-envelope"):
        return SignOnly(key, cert)
    if action == "sig":
        return SignOnlyX509(key, cert)
    if action == "expired":
        old = now - datetime.timedelta(hours=2)
        return UsernameToken(user, password, timestamp_token=timestamp(old, old + datetime.timedelta(hours=1)))
    raise SystemExit("unknown action " + action)


def wrap(env):
    """Moves the signed Body into a header block and adds another Body."""
    body = env.find("{%s}Body" % SOAP11)
    header = env.find("{%s}Header" % SOAP11)
    holder = etree.SubElement(header, "{urn:attacker}Wrapper")
    env.remove(body)
    holder.append(body)
    evil = etree.SubElement(env, "{%s}Body" % SOAP11)
    order = etree.SubElement(evil, "{urn:example:orders}GetOrder")
    etree.SubElement(order, "{urn:example:orders}id").text = "666"
    return env


def main():
    url, action, user, password = sys.argv[1:5]
    key, cert = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else (None, None)
    client = zeep.Client(url, wsse=plugin(action, user, password, key, cert))
    service = client.bind("OrdersService", "OrdersSoap12") if action == "text12" else client.service
    if action.endswith("-envelope"):
        env = client.create_message(service, "GetOrder", id="7")
        if action == "wrapped-envelope":
            env = wrap(env)
        json.dump({"envelope": etree.tostring(env).decode()}, sys.stdout)
        sys.stdout.write("\n")
        return
    try:
        result = service.GetOrder(id="7")
    except zeep.exceptions.Fault as fault:
        subcodes = [str(s) for s in (fault.subcodes or [])]
        out = {"fault": {"code": fault.code, "subcodes": subcodes, "message": fault.message}}
    else:
        out = {"result": zeep.helpers.serialize_object(result, dict)}
    json.dump(out, sys.stdout, default=str, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
