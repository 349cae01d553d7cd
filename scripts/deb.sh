#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb: the Debian packages kvarlink-dkms and kvarlinkctl, built with
# dpkg-buildpackage -us -uc -b from a copy of the tree, into
# KVARLINK_OUT/deb/, then lintian over them (it fails on a warning or an
# error; each tag left is explained in debian/*lintian-overrides).
#
# With --root, the build runs in a minimal Debian 12 root (mmdebstrap's
# buildd variant: Essential and build-essential) that has only what
# debian/control's Build-Depends names besides, so that a build
# dependency missing there fails the build.  The root is made once and
# kept in the cache under a hash of debian/control.
# Usage: deb.sh [--root]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Print the build root for this debian/control, made if it is not.
deb_build_root() {
	local key dir
	key=$(sha256sum <"$KVARLINK_TOP/debian/control" | cut -c1-12)
	dir=$KVARLINK_CACHE/deb-root-bookworm-$key
	exec 8>"$dir.lock"
	flock 8
	if [ ! -e "$dir/.kvarlink-ready" ]; then
		log "making the package build root $dir (a minute or two)"
		rm -rf "$dir"
		# apt-get build-dep reads the Build-Depends of debian/control
		# shellcheck disable=SC2016 # the hooks' $1 is mmdebstrap's
		mmdebstrap --variant=buildd --quiet \
			--customize-hook='mkdir -p "$1/tmp/kvarlink"' \
			--customize-hook="copy-in $KVARLINK_TOP/debian /tmp/kvarlink" \
			--customize-hook='chroot "$1" apt-get build-dep -y -q /tmp/kvarlink' \
			--customize-hook='rm -rf "$1/tmp/kvarlink"' \
			bookworm "$dir" "deb http://deb.debian.org/debian bookworm main" \
			>"$dir.log" 2>&1 || die "mmdebstrap of the build root failed, see $dir.log"
		touch "$dir/.kvarlink-ready"
	fi
	exec 8>&-
	echo "$dir"
}

root=
[ "${1:-}" = --root ] && root=$(deb_build_root)
version=$(cat "$KVARLINK_TOP/VERSION")
out=$KVARLINK_OUT/deb
# in the root, under /build, or here
work=$out/build
[ -n "$root" ] && work=$root/build/kvarlink-deb
rm -rf "$out" "$work"
mkdir -p "$out" "$work/kvarlink-$version"
(cd "$KVARLINK_TOP" && git ls-files -co --exclude-standard -z |
	xargs -0 cp --parents -t "$work/kvarlink-$version")

run=()
[ -n "$root" ] && run=(in_root "$root")
# shellcheck disable=SC2016 # the inner shell expands it
if ! "${run[@]}" sh -c 'cd "$0" && dpkg-buildpackage -us -uc -b' \
	"${work#"$root"}/kvarlink-$version" >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "dpkg-buildpackage failed${root:+ in $root}, see $out/build.log"
fi
mv "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out/"
rm -rf "$work"
ls "$out"/*.deb

# lintian of the release the packages are for
lintian --fail-on error,warning --info "$out"/*.changes >"$out/lintian.log" 2>&1 || {
	cat "$out/lintian.log" >&2
	die "lintian found problems, see $out/lintian.log"
}
