"""client.py WSDL_URL OPERATION ARGS_JSON [1.1|1.2 [SERVICE PORT]]: Debian's
python3-zeep as a SOAP client in s2r's interop tests (internal/tests/interop).

Loads the WSDL and its imports from WSDL_URL, calls OPERATION with the
members of ARGS_JSON as keyword arguments (on port PORT of SERVICE when
given, else on the orders contract's SOAP 1.2 port with 1.2) and
prints {"result": ...} or {"fault": {...}} as JSON. Decimals print as strings
in plain notation so that their digits are compared exactly.
"""
import decimal
import json
import sys

import zeep
import zeep.exceptions
import zeep.helpers


def default(value):
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    raise TypeError("not JSON: %r" % (value,))


def main():
    url, operation, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    version = sys.argv[4] if len(sys.argv) > 4 else "1.1"
    client = zeep.Client(url)
    service = client.service
    if len(sys.argv) > 6:
        service = client.bind(sys.argv[5], sys.argv[6])
    elif version == "1.2":
        service = client.bind("OrdersService", "OrdersSoap12")
    try:
        result = getattr(service, operation)(**args)
    except zeep.exceptions.Fault as fault:
        detail = None
        if fault.detail is not None:
            detail = {el.tag.split("}")[-1]: el.text for el in fault.detail.iter() if el is not fault.detail and el.text}
            detail.update({el.get("name"): el.text for el in fault.detail.iter() if el.get("name")})
        out = {"fault": {"message": fault.message, "code": fault.code, "detail": detail}}
    else:
        out = {"result": zeep.helpers.serialize_object(result, dict)}
    json.dump(out, sys.stdout, default=default, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
