#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check as on a fresh Debian 12 machine: a minimal root (mmdebstrap's
# minbase, plus git and make, which the README's commands start with), a
# clone of this repository's HEAD in it, and make check run there as
# root, with nothing from this machine but its kernel.  Everything the
# run needs must come from scripts/deps.sh.  Cold: make check's table of
# section times, at its end, says where the time went.
# Usage: fresh-check.sh [DIR]   (default /var/tmp/kvarlink-fresh; made anew)
# Environment: passed on to make check inside (KERNELS, FUZZ_SECONDS;
# make check's own defaults where unset).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

root=${1:-/var/tmp/kvarlink-fresh}
"$KVARLINK_TOP/scripts/deps.sh" kernels

log "making a minimal Debian 12 root in $root"
rm -rf "$root"
mmdebstrap --variant=minbase --include=git,make,ca-certificates --quiet bookworm "$root" \
	"deb http://deb.debian.org/debian bookworm main" \
	"deb http://deb.debian.org/debian bookworm-updates main" \
	"deb http://deb.debian.org/debian-security bookworm-security main"
git clone -q "$KVARLINK_TOP" "$root/root/kvarlink"
git -C "$root/root/kvarlink" log -1 --format='kvarlink: testing %h %s' >&2

# /proc, /sys and /dev for qemu, mmdebstrap and objtool, in a mount
# namespace of its own so that nothing stays mounted; the root is bound
# onto itself, as the scripts' own unshare -m needs / to be a mount point
# shellcheck disable=SC2016
unshare -m sh -c '
	mount --bind "$0" "$0" &&
	mount -t proc proc "$0/proc" && mount -t sysfs sys "$0/sys" &&
	mount --rbind /dev "$0/dev" &&
	exec chroot "$0" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		KERNELS="$1" FUZZ_SECONDS="$2" sh -c "cd /root/kvarlink && make check"
' "$root" "${KERNELS:-}" "${FUZZ_SECONDS:-20}"
