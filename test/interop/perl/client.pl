#!/usr/bin/perl
# client.pl URL OPERATION ARGS_JSON [1.1|1.2] NAMESPACE: Debian's Perl
# SOAP::Lite (libsoap-lite-perl) as a SOAP client of a document/literal
# consume service in s2r's interop tests (internal/tests/interop).
#
# SOAP::Lite reads no WSDL for document/literal, so the request is built the
# way SOAP::Lite users write it: the operation element holding the elements
# ARGS_JSON lists, qualified in NAMESPACE, values as xsd:string text,
# SOAPAction NAMESPACE:OPERATION. ARGS_JSON is an array of [name, value]
# pairs in schema order; a value is a string, a boolean, null (xsi:nil) or
# again an array of pairs (a nested element). Prints one JSON line:
# {"result": [[path, value], ...], "status": N} with every leaf of the
# answer's operation element in document order (repeated elements repeat,
# xsi:nil is null), or {"fault": {"code", "string", "s2r", "status"}}.
use strict;
use warnings;
use JSON::PP;
use SOAP::Lite;

my ($url, $operation, $args_json, $version, $ns) = @ARGV;
die "usage: client.pl URL OPERATION ARGS_JSON VERSION NAMESPACE\n" unless defined $ns;
my $json = JSON::PP->new->utf8->canonical;

# soapversion first: it sets the envelope namespace the other settings use.
my $client = SOAP::Lite->soapversion($version)->envprefix('soap')->proxy($url, timeout => 30)->ns($ns, 'o');
$client->autotype(0);
$client->on_action(sub { "$ns:$operation" });
# A Fault is the answer; an HTTP error without one is a transport error.
$client->on_fault(sub { my ($soap, $res) = @_; ref $res ? $res : die "transport: " . $soap->transport->status . "\n" });

# element turns one [name, value] pair into a SOAP::Data element.
sub element {
	my ($name, $value) = @{ $_[0] };
	if (ref $value eq 'ARRAY') {
		return SOAP::Data->name("o:$name" => \SOAP::Data->value(map { element($_) } @$value));
	}
	if (!defined $value) {
		return SOAP::Data->name("o:$name")->attr({'xsi:nil' => 'true'});
	}
	$value = $value ? 'true' : 'false' if JSON::PP::is_bool($value);
	# With autotype off SOAP::Lite writes an untyped value unescaped; typed
	# as a string it is escaped (and annotated xsi:type="xsd:string").
	return SOAP::Data->name("o:$name" => "$value")->type('string');
}

my $som = $client->call(SOAP::Data->name("o:$operation") => map { element($_) } @{ $json->decode($args_json) });
my ($status) = $client->transport->status =~ /^(\d+)/;

if ($som->fault) {
	my $v12 = $version eq '1.2';
	print $json->encode({fault => {
		code   => scalar $som->valueof($v12 ? '//Fault/Code/Value' : '//Fault/faultcode'),
		string => scalar $som->valueof($v12 ? '//Fault/Reason/Text' : '//Fault/faultstring'),
		s2r    => scalar $som->valueof('//Fault//error/code'),
		status => 0 + $status,
	}}), "\n";
	exit 0;
}

# leaves appends [path, value] for every leaf of the SOAP::Data d. A
# structure's value is a reference to a SOAP::Data holding its children.
sub leaves {
	my ($d, $prefix, $out) = @_;
	my $path = $prefix eq '' ? $d->name : "$prefix/" . $d->name;
	my $v = $d->value;
	if (ref $v eq 'REF' && ref $$v eq 'SOAP::Data') {
		leaves($_, $path, $out) for $$v->value;
	} else {
		push @$out, [$path, $v];
	}
}
my @leaves;
for (my $i = 1; my $d = $som->dataof("/Envelope/Body/[1]/[$i]"); $i++) {
	leaves($d, '', \@leaves);
}
print $json->encode({result => \@leaves, status => 0 + $status}), "\n";
