#!/usr/bin/env bash
# interop-deps.sh — installs the third-party SOAP stacks of the interop tests
# (internal/tests/interop, internal/wssec): the npm soap package pinned in
# test/interop/node/package-lock.json, and Debian's python3-zeep, PHP ext/soap
# (php-cli php-soap), Perl SOAP::Lite (libsoap-lite-perl) and, for
# WS-Security, python3-lxml, python3-xmlsec, xmlsec1 and Apache WSS4J with
# Santuario (libwss4j-java libxml-security-java, run with java/javac) and, as
# an MTOM backend of publish, JAX-WS RI (libjaxws-java). Idempotent and
# quiet: it does nothing when all are present. Without node/npm or apt-get
# (as root) it says so and leaves the tests to skip — except under CI (CI or
# S2R_REQUIRE_POSTGRES set, as make test sets it), where every stack must
# install and a missing one fails the script (and the tests would fail too).
set -euo pipefail
cd "$(dirname "$0")/.."

strict=
[[ -n ${CI:-} || -n ${S2R_REQUIRE_POSTGRES:-} ]] && strict=1
failed=0

# apt_install PKG... installs Debian packages when running as root.
apt_install() {
	command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] || return 1
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq "$@" >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$@" >/dev/null; }
}

# unavailable WHAT says that a stack could not be installed.
unavailable() {
	if [[ -n $strict ]]; then
		echo "interop-deps.sh: cannot install $1, which CI requires" >&2
		failed=1
	else
		echo "interop-deps.sh: cannot install $1: its interop tests will skip" >&2
	fi
}

node_dir=test/interop/node
if [[ ! -f $node_dir/node_modules/soap/package.json ]]; then
	command -v npm >/dev/null 2>&1 || apt_install nodejs npm || true
	if command -v npm >/dev/null 2>&1; then
		(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
	else
		unavailable "npm (for the npm soap package)"
	fi
fi

if ! /usr/bin/python3 -c 'import zeep' >/dev/null 2>&1; then
	apt_install python3-zeep || unavailable "python3-zeep (needs apt-get as root)"
fi

if ! php -r 'exit(extension_loaded("soap") ? 0 : 1);' >/dev/null 2>&1; then
	apt_install php-cli php-soap || unavailable "PHP ext/soap: php-cli php-soap (needs apt-get as root)"
fi

if ! perl -MSOAP::Lite -e 1 >/dev/null 2>&1; then
	apt_install libsoap-lite-perl || unavailable "Perl SOAP::Lite: libsoap-lite-perl (needs apt-get as root)"
fi

if ! /usr/bin/python3 -c 'import lxml, xmlsec' >/dev/null 2>&1 || ! command -v xmlsec1 >/dev/null 2>&1; then
	apt_install python3-lxml python3-xmlsec xmlsec1 || unavailable "python3-lxml python3-xmlsec xmlsec1 (needs apt-get as root)"
fi

if [[ ! -f /usr/share/java/wss4j.jar || ! -f /usr/share/java/xmlsec.jar ]]; then
	apt_install libwss4j-java libxml-security-java || unavailable "Apache WSS4J: libwss4j-java libxml-security-java (needs apt-get as root)"
fi

if [[ ! -f /usr/share/java/jaxws-rt.jar ]]; then
	apt_install libjaxws-java || unavailable "JAX-WS RI: libjaxws-java (needs apt-get as root)"
fi

exit $failed
