// backend.js WSDL_FILE [1.1|1.2]: the npm soap package as a SOAP backend on
// 127.0.0.1 (a free port). Echo answers its values unchanged; Fail throws a
// SOAP Fault with a detail. Prints "PORT=<n>" once listening; runs until
// killed.
'use strict';
const fs = require('fs');
const http = require('http');
const soap = require('soap');

const [wsdlFile, version = '1.1'] = process.argv.slice(2);
const soap12 = version === '1.2';
const xml = fs.readFileSync(wsdlFile, 'utf8');

function fault(reason) {
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

const exact = { long: (t) => t, decimal: (t) => t, integer: (t) => t };

const service = {
  EchoService: {
    EchoPort: {
      Echo(args) {
        return { values: args.values };
      },
      Fail(args) {
        throw fault('refused: ' + args.reason);
      },
    },
  },
};

const server = http.createServer((req, res) => {
  res.statusCode = 404;
  res.end();
});
server.listen(0, '127.0.0.1', () => {
  const soapServer = soap.listen(server, {
    path: '/echo', services: service, xml, forceSoap12Headers: soap12, handleNilAsNull: true,
    // Keep numbers as their exact text: JavaScript numbers would round 64-bit integers and long decimals.
    customDeserializer: exact,
  });
  // node-soap writes xsi:nil="true" for null values without declaring the
  // xsi prefix (it leaves w3.org namespaces out of the envelope), which no
  // namespace-aware parser accepts: declare it on the Envelope.
  const send = soapServer._sendHttpResponse.bind(soapServer);
  soapServer._sendHttpResponse = (res, status, body) =>
    send(res, status, typeof body === 'string' && !body.includes('xmlns:xsi=')
      ? body.replace(/<(\w+):Envelope /, '<$1:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ')
      : body);
  process.stdout.write('PORT=' + server.address().port + '\n');
});
