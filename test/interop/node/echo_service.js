// echo_service.js: the echo service the npm soap package serves in the
// interop tests (backend.js, async_backend.js). Echo answers its values
// unchanged; Fail throws a SOAP Fault with a detail.
'use strict';

function fault(soap12, reason) {
  if (soap12) {
    return {
      Fault: {
        Code: { Value: 'soap:Sender', Subcode: { Value: 'tns:InvalidReason' } },
        Reason: { Text: reason },
        Detail: { problem: { reason } },
        statusCode: 500,
      },
    };
  }
  return {
    Fault: {
      faultcode: 'soap:Client',
      faultstring: reason,
      detail: { problem: { reason } },
      statusCode: 500,
    },
  };
}

// echoService returns the services object of soap.listen.
function echoService(soap12) {
  return {
    EchoService: {
      EchoPort: {
        Echo(args) {
          return { values: args.values };
        },
        Fail(args) {
          throw fault(soap12, 'refused: ' + args.reason);
        },
      },
    },
  };
}

// exactNumbers keeps numbers as their exact text: JavaScript numbers
// would round 64-bit integers and long decimals.
const exactNumbers = { long: (t) => t, decimal: (t) => t, integer: (t) => t };

// declareXsi works around node-soap writing xsi:nil="true" for null values
// without declaring the xsi prefix (it leaves w3.org namespaces out of the
// envelope), which no namespace-aware parser accepts: it declares it on
// the Envelope of every answer.
function declareXsi(soapServer) {
  const send = soapServer._sendHttpResponse.bind(soapServer);
  soapServer._sendHttpResponse = (res, status, body) =>
    send(res, status, typeof body === 'string' && !body.includes('xmlns:xsi=')
      ? body.replace(/<(\w+):Envelope /, '<$1:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ')
      : body);
}

module.exports = { echoService, exactNumbers, declareXsi };
