#!/usr/bin/env bash
# vendor-web.sh — refresh the console's vendored JavaScript libraries from npm.
#
# The console (web/console) has no build step: it loads plain ES modules.
# Its few libraries are copied here from their npm packages, at the pinned
# versions below, with their licence files. For each package the script
# downloads the tarball with `npm pack`, checks the tarball's SHA-512
# against the integrity pinned here (and against what npm reports), copies
# the listed files, rewrites the one bare import ("preact" in the hooks
# module) to a relative path, and writes web/console/vendor/VENDOR.txt
# with the version, integrity and SHA-256 of every vendored file.
# internal/console's tests check the files against VENDOR.txt, so a hand
# edit of a vendored file fails the build.
#
# To upgrade: change a version and its integrity (npm view PKG@VER
# dist.integrity), run this script, run the console's browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

dest=web/console/vendor
# name version integrity — files as source:target pairs
packages=(
	"preact 11.2.0 sha512-/HfHI/7N84e6GrWBJ3J280z3mLaRJiDcSvj/A+y/4AbLnND/1UlGHe1sR6oYuTGwId0nP7dqDU9OnLxMPZ7xBg== dist/preact.mjs:preact.mjs hooks/dist/hooks.mjs:hooks.mjs LICENSE:LICENSE.preact"
	"htm 3.1.1 sha512-983Vyg8NwUE7JkZ6NmOqpCZ+sh1bKv2iYTlUkzlWmA5JD2acKoxd4KVxbMmxX/85mtfdnDmTFoNKcg5DGAvxNQ== dist/htm.mjs:htm.mjs LICENSE:LICENSE.htm"
	"uplot 1.6.32 sha512-KIMVnG68zvu5XXUbC4LQEPnhwOxBuLyW1AHtpm6IKTXImkbLgkMy+jabjLgSLMasNuGGzQm/ep3tOkyTxpiQIw== dist/uPlot.esm.js:uplot.mjs dist/uPlot.min.css:uplot.css LICENSE:LICENSE.uplot"
)

command -v npm >/dev/null || { echo "vendor-web: npm is required" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

lock="$tmp/VENDOR.txt"
{
	echo "# Vendored by scripts/vendor-web.sh; do not edit by hand."
	echo "# package version tarball-integrity"
	echo "#   sha256 file"
} >"$lock"

for entry in "${packages[@]}"; do
	read -r name version integrity files <<<"$entry"
	echo "vendor-web: $name@$version" >&2
	mkdir -p "$tmp/$name"
	reported=$(cd "$tmp/$name" && npm pack "$name@$version" --json --loglevel=error 2>/dev/null |
		sed -n 's/.*"integrity": *"\([^"]*\)".*/\1/p' | head -n1)
	tarball=$(ls "$tmp/$name"/*.tgz)
	actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
	if [[ "$actual" != "$integrity" || "$reported" != "$integrity" ]]; then
		echo "vendor-web: $name@$version: integrity mismatch: pinned $integrity, tarball $actual, npm $reported" >&2
		exit 1
	fi
	tar -xzf "$tarball" -C "$tmp/$name"
	echo "$name $version $integrity" >>"$lock"
	for pair in $files; do
		src=${pair%%:*} dst=${pair#*:}
		cp "$tmp/$name/package/$src" "$tmp/$dst"
	done
done

# The hooks module imports the bare specifier "preact"; browsers need a
# path (an import map would be an inline script, which the console's CSP
# forbids).
sed -i 's#from"preact"#from"./preact.mjs"#g; s#from "preact"#from "./preact.mjs"#g' "$tmp/hooks.mjs"
if grep -Eq "from ?\"preact\"" "$tmp/hooks.mjs"; then
	echo "vendor-web: hooks.mjs still imports \"preact\"" >&2
	exit 1
fi

rm -rf "$dest"
mkdir -p "$dest"
for entry in "${packages[@]}"; do
	read -r _ _ _ files <<<"$entry"
	for pair in $files; do
		dst=${pair#*:}
		cp "$tmp/$dst" "$dest/$dst"
		echo "  $(sha256sum "$dest/$dst" | cut -d' ' -f1) $dst" >>"$lock"
	done
done
cp "$lock" "$dest/VENDOR.txt"
echo "vendor-web: wrote $dest" >&2
