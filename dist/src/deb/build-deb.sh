#!/bin/sh
# Builds locus-proxy_<version>_all.deb with dpkg-deb from the tree beside this script, the proxy's shaded jar and its
# README. Usage: build-deb.sh VERSION JAR README OUTDIR
set -eu
version=$1 jar=$2 readme=$3 out=$4
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
# Debian sorts "~" before anything, so 0.1.0~SNAPSHOT comes before the release 0.1.0.
deb_version=$(printf '%s' "$version" | sed 's/-/~/g')
stage=$out/deb-stage
rm -rf "$stage"
mkdir -p "$stage"
cp -a "$here/locus-proxy/." "$stage/"
sed -i "s/@DEB_VERSION@/$deb_version/" "$stage/DEBIAN/control"
sed -i "s/@VERSION@/$version/" "$stage/usr/bin/locus-proxy"
install -D -m 0644 "$jar" "$stage/usr/share/locus-proxy/locus-memcached-proxy.jar"
install -D -m 0644 "$readme" "$stage/usr/share/doc/locus-proxy/README"
chmod -R go-w "$stage"
dpkg-deb --root-owner-group --build "$stage" "$out/locus-proxy_${deb_version}_all.deb" >/dev/null
rm -rf "$stage"
echo "$out/locus-proxy_${deb_version}_all.deb"
