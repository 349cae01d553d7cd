#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The root disk of the built-in kernel's early-boot demonstration
# (selftests/boot/varlink_boot_root.c, which PID 1 mounts read-only): a
# small raw ext2 image holding one file, kvarlink-marker, whose content
# the program checks.  Made without root (mke2fs -d), anew at each run:
# it takes a few milliseconds.
# Usage: boot-disk.sh IMAGE
# BOOT_DISK_MARKER=TEXT puts TEXT in the marker file instead (a run with
# a wrong marker must fail).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: boot-disk.sh IMAGE"
img=$1
mke2fs=$(PATH=$PATH:/sbin:/usr/sbin command -v mke2fs) ||
	die "no mke2fs: scripts/deps.sh debug (e2fsprogs)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '%s\n' "${BOOT_DISK_MARKER:-kvarlink early-boot root disk}" >"$dir/kvarlink-marker"
rm -f "$img"
# 1 MiB of 1 KiB blocks, owned by root whoever makes it
"$mke2fs" -q -F -t ext2 -b 1024 -L kvarlink-root -E root_owner=0:0 -d "$dir" "$img" 1024 >/dev/null ||
	die "mke2fs failed"
