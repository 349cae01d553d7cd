#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a debug test kernel once and print its build tree.
# Usage: debug-kernel.sh [debug|kcsan]   (default debug)
#
#   debug  tinyconfig + kernel-base.config + debug-kernel.config (KASAN,
#          its checks inline, not a call each: the same checks, and under
#          TCG the selftests take half the time, device's 139 s 62 s)
#   kcsan  tinyconfig + kernel-base.config + kcsan-kernel.config (KCSAN)
#
# Built out of tree from Debian's linux-source-6.1 into the cache.  The
# tree is named after a hash of the fragments, the recipe version and the
# source package version (debug_kdir in lib.sh), so it is rebuilt only
# when one of them changes.  No ccache: a tree is built once, and on a
# machine with no cache ccache made the build a quarter slower.
#
# The source (ktree_src in lib.sh) is a hard-linked copy of the extracted
# package with two changes, so that the package's own tree, which
# checkpatch and the kselftest harness read, stays Debian's:
# - 6.1 offers the fault-injection stack filter (require-start/require-end)
#   on every architecture but x86-64, a leftover of unreliable x86-64
#   unwinders that 6.2 dropped; the fault run needs it to fail only
#   allocations made on behalf of our modules.
# - this project is laid in (intree.sh), anew at every call: the debug
#   kernels leave CONFIG_VARLINK unset, and the built-in kernel
#   (builtin-kernel.sh) is the debug kernel's build tree with it set,
#   built incrementally; it needs the same source path for that.  A
#   module built out of tree against these kernels finds the current
#   <linux/varlink.h> there, the same as its own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-debug}
kdir=$(debug_kdir "$variant")
mapfile -t frags < <(debug_fragments "$variant")
orig=$(ksrc_ensure)
src=$(ktree_src)

# two runs wanting the same source or kernel make it once, not over each
# other; the source's lock is held while it is laid, the kernel's while
# it is built (another build may read the source meanwhile: what a second
# intree.sh of the same tree writes is what is there)
mkdir -p "$KVARLINK_CACHE"
exec 7>"$src.lock"
flock 7
if [ ! -e "$src/.kvarlink-patched" ]; then
	rm -rf "$src.tmp"
	cp -al "$orig" "$src.tmp"
	# sed -i writes a new file, so the original keeps its content
	sed -i '/^config FAULT_INJECTION_STACKTRACE_FILTER$/,/^config /{/^\tdepends on !X86_64$/d}' \
		"$src.tmp/lib/Kconfig.debug"
	touch "$src.tmp/.kvarlink-patched"
	rm -rf "$src"
	mv -T "$src.tmp" "$src"
fi
"$KVARLINK_TOP/scripts/intree.sh" "$src" >&2
exec 7>&-
exec 8>"$kdir.lock"
flock 8

if [ -e "$kdir/.kvarlink-built" ]; then
	echo "$kdir"
	exit 0
fi

jobs=$(($(nproc) + 1))
mk() { make -s -C "$src" O="$kdir" ARCH=x86_64 "$@"; }

log "building the $variant kernel in $kdir (about 10 minutes on 2 cores)"
rm -rf "$kdir"
mkdir -p "$kdir"
kernel_configure "$src" "$kdir" "${frags[@]}" ||
	die "the $variant config fragments do not apply"
grep -q '^CONFIG_VARLINK=' "$kdir/.config" && die "the $variant kernel has CONFIG_VARLINK set"

mk -j"$jobs" bzImage modules
touch "$kdir/.kvarlink-built"
log "$variant kernel ready"
echo "$kdir"
