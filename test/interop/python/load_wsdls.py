"""load_wsdls.py: loads many WSDLs with Debian's python3-zeep in one process,
for s2r's corpus WSDL serving test (internal/tests/interop).

Reads one WSDL URL a line on stdin. For each, builds zeep.Client(url) (which
loads the WSDL and every imported WSDL and XSD over HTTP) and prints one
JSON line: {"url": URL, "services": {SERVICE: {PORT: {"binding": zeep's binding
class, "address": ..., "operations": [...], "notifications": [operations
without input]}}}} or, when zeep cannot load it, {"url": URL, "error":
"Type: message"}. Nothing is called, and nothing is loaded from outside
the loopback interface.
"""
import json
import sys
import urllib.parse

import zeep
import zeep.transports


class LoopbackTransport(zeep.transports.Transport):
    """Loads documents from 127.0.0.1 and localhost only, so that a result
    never depends on the network: what a WSDL needs from elsewhere fails."""

    def load(self, url):
        host = urllib.parse.urlsplit(url).hostname
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ConnectionRefusedError("not loaded, outside s2r: %s" % url)
        return super().load(url)


def describe(url):
    transport = LoopbackTransport(timeout=10, operation_timeout=10)
    client = zeep.Client(url, transport=transport)
    services = {}
    for service in client.wsdl.services.values():
        ports = {}
        for port in service.ports.values():
            operations = port.binding.all()
            ports[port.name] = {
                "binding": type(port.binding).__name__,
                "address": (port.binding_options or {}).get("address"),
                "operations": sorted(operations),
                "notifications": sorted(n for n, op in operations.items() if op.input is None),
            }
        services[service.name] = ports
    return {"services": services}


def main():
    for line in sys.stdin:
        url = line.strip()
        if not url:
            continue
        try:
            out = describe(url)
        except Exception as e:  # noqa: BLE001 - every failure is a result
            out = {"error": "%s: %s" % (type(e).__name__, e)}
        out["url"] = url
        json.dump(out, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
