// wssec_interop.js: WS-Security interop with the npm soap package and its
// xml-crypto, for internal/wssec's tests. Input on stdin (JSON):
//   {"sign": [{"envelope", "envelopeKey", "sha1"}], "verify": [envelope...],
//    "keyPem", "certPem"}
// Output (JSON): {"signed": [envelope...], "verified": ["OK" | "FAIL ..."]}:
// each "sign" envelope signed by soap's WSSecurityCert, and each "verify"
// envelope checked by xml-crypto against certPem.
'use strict';
const { WSSecurityCert } = require('soap');
const { SignedXml } = require('xml-crypto');
const { DOMParser } = require('@xmldom/xmldom');
const xpath = require('xpath');

const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const signed = input.sign.map((c) => {
  const opts = c.sha1
    ? { signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1' }
    : { signerOptions: { idMode: 'wssecurity' } };
  const wss = new WSSecurityCert(input.keyPem, input.certPem, '', opts);
  return wss.postProcess(c.envelope, c.envelopeKey);
});
const verified = input.verify.map((env) => {
  try {
    const doc = new DOMParser().parseFromString(env, 'text/xml');
    const sigNode = xpath.select("//*[local-name(.)='Signature' and namespace-uri(.)='http://www.w3.org/2000/09/xmldsig#']", doc)[0];
    const sig = new SignedXml({ idMode: 'wssecurity', publicCert: input.certPem });
    sig.loadSignature(sigNode);
    return sig.checkSignature(env) ? 'OK' : 'FAIL';
  } catch (e) {
    return 'FAIL ' + e.message;
  }
});
process.stdout.write(JSON.stringify({ signed, verified }));
