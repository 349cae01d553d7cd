#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages a make target needs, or say how to.
# Usage: deps.sh GROUP...   (groups: build lint vm kernels debug run host bench go deb)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs_build="make gcc libc6-dev libelf-dev rsync linux-headers-$STOCK_FLAVOUR"
# python3-pygments: docutils reads the .rst's code blocks with it; man-db:
# the client's man page is rendered with warnings on
pkgs_lint="linux-source-6.1 sparse xz-utils perl git python3-docutils python3-pygments man-db"
pkgs_vm="linux-image-$STOCK_FLAVOUR qemu-system-x86 busybox-static cpio python3 kmod procps"
# the Debian kernels besides the stock one (debian-kernel.sh)
pkgs_kernels="mmdebstrap debian-archive-keyring xz-utils util-linux"
# e2fsprogs: the built-in kernel's root disk (boot-disk.sh)
pkgs_debug="linux-source-6.1 xz-utils bc bison flex libssl-dev e2fsprogs"
pkgs_run="$pkgs_vm"
pkgs_host="gcc clang libclang-rt-14-dev"
# linux-perf: the profile of make bench, perf run in the VM; binutils:
# the nm that bench-profile.sh reads the module objects with
pkgs_bench="libjson-c-dev libcjson-dev libjansson-dev linux-perf binutils"
pkgs_go="golang-go golang-github-varlink-go-dev varlink-go"
# make deb (deb.sh): dpkg-buildpackage here, or in a root mmdebstrap makes
# zstd: deb-test.sh unpacks modules a DKMS compressed with it
pkgs_deb="dpkg-dev debhelper dh-dkms lintian mmdebstrap debian-archive-keyring zstd"

want=()
for group in "$@"; do
	var="pkgs_$group"
	[ -n "${!var+x}" ] || die "unknown package group '$group'"
	for p in ${!var}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			want+=("$p")
	done
done
[ ${#want[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	log "missing packages; run as root:"
	echo "  apt-get install -y --no-install-recommends ${want[*]}" >&2
	exit 1
fi
log "installing ${want[*]}"
export DEBIAN_FRONTEND=noninteractive
# a fresh machine's package lists may be missing or old: update and retry
if ! apt-get install -y -q --no-install-recommends "${want[@]}" >/dev/null 2>&1; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${want[@]}" >/dev/null
fi
