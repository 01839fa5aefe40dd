#!/bin/sh
# Builds locus-proxy-<version>-oci.tar, an OCI image archive of the memcached proxy, without a container daemon:
# mmdebstrap makes the base layer from Debian packages, umoci adds the proxy's layers and writes the image config.
# Usage: build-oci.sh VERSION JAR OUTDIR
#
# The base layer (Debian bookworm with openjdk-17-jre-headless and the image's user) is cached under
# ${XDG_CACHE_HOME:-~/.cache}/locus/oci-base/<sha256 of its recipe>/, so only the first build downloads packages.
# LOCUS_OCI_BASE_REFRESH=1 builds it again, e.g. to take Debian's security updates.
set -eu
version=$1 jar=$2 out=$3
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)

fail() { printf 'build-oci.sh: %s\n' "$*" >&2; exit 1; }
for tool in mmdebstrap umoci; do
  command -v "$tool" >/dev/null || fail "$tool not found: install the Debian package $tool (./locus hosts does)"
done
[ -f "$jar" ] || fail "proxy jar $jar not found: build memcached-proxy first (mvn -pl dist -am package)"

# --- the base layer: everything in the recipe is part of the cache key ---------------------------------------------
suite=bookworm
mirror=http://deb.debian.org/debian
security=http://deb.debian.org/debian-security
packages=openjdk-17-jre-headless
# A numeric user outside Debian's system range, so that runtimes that only trust numbers (Kubernetes runAsNonRoot)
# can see the image does not run as root.
uid=10001
user=locus-proxy
# A system user (no home, no login, no subordinate ids), with the system range stretched to take the chosen uid.
groupadd="groupadd --system -K SYS_GID_MAX=$uid --gid $uid $user"
useradd="useradd --system -K SYS_UID_MAX=$uid --uid $uid --gid $uid"
useradd="$useradd --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin $user"
# Man pages, docs (except copyrights) and translations are not needed in a service image. openjdk's postinst links its
# man page with update-alternatives, which fails when the man1 directory does not exist.
filters="path-exclude=/usr/share/man/* path-exclude=/usr/share/doc/*"
filters="$filters path-include=/usr/share/doc/*/copyright path-exclude=/usr/share/locale/*"
recipe="mmdebstrap 1 variant=apt suite=$suite arch=amd64
sources=$mirror $suite main | $mirror $suite-updates main | $security $suite-security main
include=$packages
dpkgopt=$filters
essential-hook=mkdir -p usr/share/man/man1
customize-hook=$groupadd; $useradd"
key=$(printf '%s' "$recipe" | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/locus/oci-base
base=$cache/$key

build_base() {
  tmp=$cache/$key.tmp.$$
  rm -rf "$tmp"
  mkdir -p "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  printf 'build-oci.sh: building the base layer from Debian packages (%s, %s; once, then cached in %s)\n' \
    "$suite" "$packages" "$base" >&2
  mmdebstrap --quiet --variant=apt --architecture=amd64 --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
    --customize-hook="chroot \"\$1\" $groupadd" --customize-hook="chroot \"\$1\" $useradd" \
    --customize-hook="chroot \"\$1\" dpkg-query -W -f='\${Package} \${Version}\\n' >'$tmp/packages.txt'" \
    "$suite" "$tmp/rootfs.tar" \
    "deb $mirror $suite main" "deb $mirror $suite-updates main" "deb $security $suite-security main"
  umoci init --layout "$tmp/layout"
  umoci new --image "$tmp/layout:base"
  umoci raw add-layer --image "$tmp/layout:base" \
    --history.created_by "mmdebstrap --variant=apt $suite --include=$packages; user $user ($uid)" "$tmp/rootfs.tar"
  rm "$tmp/rootfs.tar"
  printf '%s\n' "$recipe" >"$tmp/recipe.txt"
  # Another build may have finished the same recipe meanwhile: then its base stays and this one is dropped.
  [ "${LOCUS_OCI_BASE_REFRESH:-0}" = 1 ] && rm -rf "$base"
  mv -T "$tmp" "$base" 2>/dev/null || rm -rf "$tmp"
  trap - EXIT
}

if [ ! -f "$base/recipe.txt" ] || [ "${LOCUS_OCI_BASE_REFRESH:-0}" = 1 ]; then
  build_base
fi

# --- the proxy's layers and the image config -----------------------------------------------------------------------
stage=$out/oci-stage
rm -rf "$stage"
mkdir -p "$stage/layout"
# umoci writes new blobs and never changes one in place, so the base's blobs can be shared by hard links; the index is
# rewritten, so it is copied.
cp -al "$base/layout/blobs" "$stage/layout/" 2>/dev/null || cp -a "$base/layout/blobs" "$stage/layout/"
cp "$base/layout/index.json" "$base/layout/oci-layout" "$stage/layout/"
mkdir -p "$stage/opt/locus-proxy" "$stage/etc/locus"
install -m 0644 "$jar" "$stage/opt/locus-proxy/locus-proxy.jar"
install -m 0644 "$here/proxy.yaml" "$stage/etc/locus/proxy.yaml"
image=$stage/layout:$version
description="Locus memcached proxy (tenant- and deadline-aware, in front of memcached)"
umoci insert --image "$stage/layout:base" --tag "$version" \
  --history.created_by "locus dist: /opt/locus-proxy/locus-proxy.jar" "$stage/opt/locus-proxy" /opt/locus-proxy
umoci insert --image "$image" --history.created_by "locus dist: /etc/locus/proxy.yaml" \
  "$stage/etc/locus" /etc/locus
umoci config --image "$image" \
  --config.user "$uid:$uid" \
  --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --config.entrypoint java --config.entrypoint -jar --config.entrypoint /opt/locus-proxy/locus-proxy.jar \
  --config.cmd --config --config.cmd /etc/locus/proxy.yaml \
  --config.workingdir / \
  --config.exposedports 22122/tcp --config.exposedports 22123/tcp \
  --config.label org.opencontainers.image.title=locus-proxy \
  --config.label "org.opencontainers.image.description=$description" \
  --config.label "org.opencontainers.image.version=$version" \
  --history.created_by "locus dist: entrypoint, user $user ($uid), ports, labels"
umoci rm --image "$stage/layout:base"
umoci gc --layout "$stage/layout"

file=$out/locus-proxy-$version-oci.tar
tar -C "$stage/layout" --sort=name --owner=0 --group=0 --numeric-owner --mode=a+rX,u+w \
  -cf "$file.tmp" oci-layout index.json blobs
mv "$file.tmp" "$file"
rm -rf "$stage"
echo "$file"
