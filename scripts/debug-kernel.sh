#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the debug test kernel once and print its build tree.
#
# tinyconfig + debug-kernel.config, built out of tree from Debian's
# linux-source-6.1 into the cache, with ccache.  The tree is named after
# a hash of the fragment, this script and the source package version, so
# it is rebuilt only when one of them changes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$(debug_kdir)
if [ -e "$kdir/.kvarlink-built" ]; then
	echo "$kdir"
	exit 0
fi

src=$(ksrc_ensure)
frag="$KVARLINK_TOP/scripts/debug-kernel.config"
jobs=$(($(nproc) + 1))
export CCACHE_DIR="$KVARLINK_CACHE/ccache"
# relative paths in the cache, so a rebuild in a new tree still hits it
export CCACHE_BASEDIR="$KVARLINK_CACHE" CCACHE_NOHASHDIR=1
mk() { make -s -C "$src" O="$kdir" ARCH=x86_64 CC="ccache gcc" "$@"; }

log "building the debug kernel in $kdir (about 8 minutes on 2 cores)"
rm -rf "$kdir"
mkdir -p "$kdir"
mk tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$kdir" "$kdir/.config" "$frag" >/dev/null
mk olddefconfig

# Every line of the fragment must survive olddefconfig.
bad=0
while IFS= read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	sym=${line%%=*}
	if [ "${line#*=}" = n ]; then
		! grep -q "^$sym=" "$kdir/.config" && continue
	else
		grep -qxF "$line" "$kdir/.config" && continue
	fi
	log "config: wanted $line, got: $(grep "^$sym=\|^# $sym " "$kdir/.config" || echo unset)"
	bad=1
done < "$frag"
[ $bad -eq 0 ] || die "the debug config fragment does not apply"

mk -j"$jobs" bzImage modules
touch "$kdir/.kvarlink-built"
log "debug kernel ready"
echo "$kdir"
