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
# and a hash of the recipe: it is made again only when either changes.
# A series that cannot be fetched is an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=$1
# bumped whenever this script changes what it makes
recipe=3
mirror=http://deb.debian.org/debian
case "$series" in
6.1) suite=bookworm dists="bookworm bookworm-updates" ;;
6.12) suite=bookworm dists="bookworm bookworm-backports" ;;
7.3) suite=trixie dists="trixie trixie-backports" ;;
*) die "unknown kernel series '$series' (6.1, 6.12 or 7.3)" ;;
esac
sources=()
for d in $dists; do
	sources+=("deb $mirror $d main")
done
# Debian 12's security archive carries 6.12 too, often newer than backports
[ "$suite" = bookworm ] && dists="$dists bookworm-security" &&
	sources+=("deb http://deb.debian.org/debian-security bookworm-security main")
include="make,gcc,libc6-dev,libelf-dev,dwarves,sparse,kmod,dkms"

apt_dir="$KVARLINK_CACHE/apt/$series"
private_apt "$apt_dir" "${sources[@]}"
apt-get "${apt_opts[@]}" -q --error-on=any update >"$apt_dir/update.log" 2>&1 ||
	die "apt-get update for $dists failed, see $apt_dir/update.log"

# The newest generic amd64 headers of the series name the release.
pattern="^linux-headers-${series//./\\.}[.-][0-9][^ ]*-amd64$"
rel=$(apt-cache "${apt_opts[@]}" pkgnames linux-headers- | grep -E "$pattern" |
	grep -v -e '-rt-amd64$' -e '-cloud-amd64$' | sed 's/^linux-headers-//' | sort -V | tail -n 1)
[ -n "$rel" ] || die "no linux-headers-$series.*-amd64 in $dists"

key=$(echo "$recipe $suite $include" | sha256sum | cut -c1-8)
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
# would build the modules on a machine running that kernel.  6.12's
# headers depend on its image, whose installation would unpack thousands
# of modules and make an initramfs, neither of which anything here uses
# (minutes): the modules are left out, and the root's update-initramfs is
# diverted to true before anything is installed.
# shellcheck disable=SC2016 # the hook's $1 is mmdebstrap's
mmdebstrap --variant=apt --quiet --include="$include,linux-headers-$rel" \
	--aptopt='Acquire::Check-Valid-Until "false"' \
	--dpkgopt='path-exclude=/lib/modules/*/kernel/*' \
	--dpkgopt='path-exclude=/usr/lib/modules/*/kernel/*' \
	--essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs &&
		ln -s /bin/true "$1/usr/sbin/update-initramfs"' \
	"$suite" "$dir/root" "${sources[@]}" >"$dir/mmdebstrap.log" 2>&1 ||
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
