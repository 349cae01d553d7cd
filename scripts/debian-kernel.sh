#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch a Debian kernel series once and print its directory in the cache:
#   DIR/release    the kernel release, e.g. 6.12.95+deb12-amd64
#   DIR/root       a minimal Debian of that kernel's release, made with
#                  mmdebstrap: its headers, compiler, dkms and sparse,
#                  for building the modules the way its users do
#   DIR/vmlinuz    the image, and DIR/modules/ the kernel modules the
#                  tests need (dummy, veth), uncompressed for busybox
#                  insmod; not for 6.1, whose image is the host's own
# Usage: debian-kernel.sh 6.1|6.12|7.3
#
# The newest release of the series is looked up with a private apt
# configuration (sources, lists and cache in the cache directory; the
# system's apt sources are never touched), so a new Debian upload is
# picked up on the next run.  The directory is named after the release
# and a hash of this script: it is made again only when either changes.
# A series that cannot be fetched is an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=$1
mirror=http://deb.debian.org/debian
case "$series" in
6.1) suite=bookworm dists="bookworm bookworm-updates" ;;
6.12) suite=bookworm dists="bookworm bookworm-backports" ;;
7.3) suite=trixie dists="trixie trixie-backports" ;;
*) die "unknown kernel series '$series' (6.1, 6.12 or 7.3)" ;;
esac

# The private apt configuration of this series.
apt_dir="$KVARLINK_CACHE/apt/$series"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
: >"$apt_dir/sources.list"
for d in $dists; do
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $d main" \
		>>"$apt_dir/sources.list"
done
[ "$suite" = bookworm ] &&
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main" \
		>>"$apt_dir/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache::Archives="$apt_dir/archives"
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
	-o Dir::State::status=/dev/null -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -q update >"$apt_dir/update.log" 2>&1 ||
	die "apt-get update for $suite failed, see $apt_dir/update.log"

# The newest generic amd64 headers of the series name the release.
pattern="^linux-headers-${series//./\\.}[.-][0-9][^ ]*-amd64$"
rel=$(apt-cache "${apt_opts[@]}" pkgnames linux-headers- | grep -E "$pattern" |
	grep -v -e '-rt-amd64$' -e '-cloud-amd64$' | sed 's/^linux-headers-//' | sort -V | tail -n 1)
[ -n "$rel" ] || die "no linux-headers-$series.*-amd64 in $dists"

key=$(sha256sum <"$0" | cut -c1-8)
dir="$KVARLINK_CACHE/kernel-$rel-$key"
if [ -e "$dir/.kvarlink-ready" ]; then
	echo "$dir"
	exit 0
fi

log "fetching Linux $rel from $dists into $dir (a minute or two)"
# one release per series is kept
rm -rf "$KVARLINK_CACHE/kernel-$series"[.-]*
mkdir -p "$dir/modules"
echo "$rel" >"$dir/release"

# The build root: the release's own compiler and its headers, as DKMS
# would build the modules on a machine running that kernel.
mirrors=()
while read -r line; do
	mirrors+=("${line/\[signed-by=*\] /}")
done <"$apt_dir/sources.list"
mmdebstrap --variant=apt --quiet \
	--include="make,gcc,libc6-dev,libelf-dev,dwarves,sparse,kmod,dkms,linux-headers-$rel" \
	"$suite" "$dir/root" "${mirrors[@]}" >"$dir/mmdebstrap.log" 2>&1 ||
	die "mmdebstrap of $suite with linux-headers-$rel failed, see $dir/mmdebstrap.log"

# The image and the modules the tests load, where the host has none.
if [ "$series" != 6.1 ]; then
	debs="linux-image-$rel-unsigned"
	# 7.x splits the image into linux-binary-* and linux-modules-*
	apt-cache "${apt_opts[@]}" show "$debs" >/dev/null 2>&1 ||
		debs="linux-binary-$rel linux-modules-$rel"
	# shellcheck disable=SC2086
	(cd "$apt_dir/archives" && apt-get "${apt_opts[@]}" -q download $debs) \
		>"$dir/download.log" 2>&1 || die "downloading $debs failed, see $dir/download.log"
	x="$dir/extract"
	mkdir -p "$x"
	for deb in $debs; do
		dpkg-deb --fsys-tarfile "$apt_dir/archives/${deb}_"*.deb |
			tar -C "$x" -x --wildcards '*/vmlinuz*' '*/drivers/net/dummy.ko*' \
				'*/drivers/net/veth.ko*' 2>/dev/null || true
	done
	find "$x" -name 'vmlinuz*' -exec mv {} "$dir/vmlinuz" \;
	find "$x" -name '*.ko*' -exec mv {} "$dir/modules/" \;
	rm -rf "$x"
	xz -d "$dir"/modules/*.xz 2>/dev/null || true
	[ -s "$dir/vmlinuz" ] && [ -e "$dir/modules/dummy.ko" ] && [ -e "$dir/modules/veth.ko" ] ||
		die "the image or the test modules are missing from $debs"
	rm -f "$apt_dir/archives/"*.deb
fi

touch "$dir/.kvarlink-ready"
log "Linux $rel ready"
echo "$dir"
