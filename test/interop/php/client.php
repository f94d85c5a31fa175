<?php
// client.php WSDL_URL OPERATION ARGS_JSON [1.1|1.2]: PHP's ext/soap
// SoapClient (Debian php-soap) as a SOAP client of consume in s2r's interop
// tests (internal/tests/interop). Loads the WSDL and its imports from
// WSDL_URL, calls OPERATION in the SOAP version given (SoapClient picks the
// WSDL's binding of that version) with the object ARGS_JSON, and prints
// one JSON line: {"result": ..., "status": N} or {"fault": {"code",
// "string", "s2r", "status"}}. Big numbers stay exact: ext/soap reads
// xs:long as a 64-bit integer and xs:decimal as its text; ARGS_JSON
// passes them as strings. SOAP_SINGLE_ELEMENT_ARRAYS keeps an array of
// one an array.

[, $url, $operation, $argsJSON] = $argv;
$version = $argv[4] ?? '1.1';
$client = new SoapClient($url, [
	'soap_version' => $version === '1.2' ? SOAP_1_2 : SOAP_1_1,
	'cache_wsdl' => WSDL_CACHE_NONE,
	'features' => SOAP_SINGLE_ELEMENT_ARRAYS,
	'exceptions' => true,
	'trace' => true,
	'connection_timeout' => 30,
]);

function status($client) {
	preg_match('#^HTTP/\S+ (\d+)#', (string) $client->__getLastResponseHeaders(), $m);
	return isset($m[1]) ? (int) $m[1] : 0;
}

$flags = JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR;
try {
	$result = $client->__soapCall($operation, [json_decode($argsJSON, true, 512, JSON_THROW_ON_ERROR)]);
	echo json_encode(['result' => $result, 'status' => status($client)], $flags), "\n";
} catch (SoapFault $f) {
	if (!isset($f->faultcode) || $client->__getLastResponse() === null) {
		throw $f; // no answer: a transport or client-side error
	}
	echo json_encode(['fault' => [
		'code' => $f->faultcode,
		'string' => $f->faultstring,
		's2r' => $f->detail->error->code ?? null,
		'status' => status($client),
	]], $flags), "\n";
}
