#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the built-in kernel, and print its build tree: Debian's
# linux-source-6.1 with this project laid in by intree.sh, configured
# with tinyconfig + kernel-base.config + builtin-kernel.config
# (CONFIG_VARLINK=y).
# Usage: builtin-kernel.sh [y|m]
#   m: the same with every varlink option =m, to show that the in-tree
#      form builds as modules too (W=1, no warning); nothing boots it.
#
# The source is a hard-linked copy of the extracted package (intree.sh
# writes new files, never through the links), and the build tree is
# named after a hash of the source version, this recipe and the
# fragments: both are kept, and each run lays the project in again and
# builds incrementally, so a change to the project costs a compile of
# net/varlink and a link, not a kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILTIN_KERNEL_RECIPE=1
as=${1:-y}
case "$as" in y|m) ;; *) die "usage: builtin-kernel.sh [y|m]" ;; esac
orig=$(ksrc_ensure)
key=$( { ksrc_version; echo "$BUILTIN_KERNEL_RECIPE $as"
	cat "$KVARLINK_TOP/scripts/kernel-base.config" "$KVARLINK_TOP/scripts/builtin-kernel.config"; } |
	sha256sum | cut -c1-12)
base=$KVARLINK_CACHE/builtin-$as-$key
src=$base/src kdir=$base/build

mkdir -p "$base"
exec 8>"$base.lock"
flock 8
frags=("$KVARLINK_TOP/scripts/kernel-base.config" "$base/varlink.config")
if [ "$as" = y ]; then
	cp "$KVARLINK_TOP/scripts/builtin-kernel.config" "$base/varlink.config"
else
	sed '/_DEBUG=/!s/^\(CONFIG_VARLINK[A-Z_]*\)=y$/\1=m/' \
		"$KVARLINK_TOP/scripts/builtin-kernel.config" >"$base/varlink.config"
fi

if [ ! -e "$src/.kvarlink-copied" ]; then
	rm -rf "$src"
	cp -al "$orig" "$src"
	touch "$src/.kvarlink-copied"
fi
"$KVARLINK_TOP/scripts/intree.sh" "$src" >&2

jobs=$(($(nproc) + 1))
export CCACHE_DIR="$KVARLINK_CACHE/ccache"
export CCACHE_BASEDIR="$KVARLINK_CACHE" CCACHE_NOHASHDIR=1
mk() { make -s -C "$src" O="$kdir" ARCH=x86_64 CC="ccache gcc" "$@"; }

if [ ! -e "$kdir/.kvarlink-configured" ]; then
	log "configuring the built-in kernel in $kdir (the first build takes about 8 minutes on 2 cores)"
	rm -rf "$kdir"
	mkdir -p "$kdir"
	# the stack filter of failslab needs the debug kernel's change to
	# 6.1 (debug-kernel.sh); this kernel has no fault run
	KCONFIG_UNCHECKED=CONFIG_FAULT_INJECTION_STACKTRACE_FILTER \
		kernel_configure "$src" "$kdir" "${frags[@]}" ||
		die "the built-in kernel's config fragments do not apply"
	touch "$kdir/.kvarlink-configured"
fi
# With W=1, and net/varlink must build without a warning: if it does
# not, its objects go, so that the next run compiles them again and
# fails again.
if ! mk -j"$jobs" W=1 bzImage modules 2>"$base/build.log"; then
	rm -rf "$kdir/net/varlink"
	cat "$base/build.log" >&2
	die "the built-in kernel does not build"
fi
if grep -A3 'net/varlink/.*\(warning\|error\)' "$base/build.log" >&2; then
	rm -rf "$kdir/net/varlink"
	die "W=1 warnings in net/varlink"
fi
if [ "$as" = y ]; then
	grep -q ' __varlink_register_interface$' "$kdir/System.map" ||
		die "the built-in kernel has no varlink core"
else
	for m in varlink varlink_system varlink_process varlink_network varlink_test_provider; do
		[ -e "$kdir/net/varlink/$m.ko" ] || die "no net/varlink/$m.ko"
	done
fi
# the uapi headers, for the kselftests (KHDR_INCLUDES)
mk headers >&2
echo "$kdir"
