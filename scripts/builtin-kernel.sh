#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the built-in kernel, and print its build tree: the debug kernel
# (debug-kernel.sh: tinyconfig + kernel-base.config + debug-kernel.config,
# from a source with this project laid in) with builtin-kernel.config
# merged on top (CONFIG_VARLINK=y).
# Usage: builtin-kernel.sh [y|m]
#   m: the same with every varlink option =m, to show that the in-tree
#      form builds as modules too (W=1, no warning); nothing boots it.
# Environment: KVARLINK_NEW_ONLY=1 builds a tree only if it has never
# been made (check.sh's background build, which would otherwise repeat
# the incremental build of the run that needs the kernel).
#
# The build tree starts as a copy of the debug kernel's, which has all
# the rest of builtin-kernel.config (the block layer, PCI, virtio and ext2
# of the early-boot demonstration are in debug-kernel.config for this), so
# the first build compiles net/varlink and links, a minute on 2 cores,
# rather than building a kernel; both are kept, named after the debug
# kernel's tree, this recipe and the fragment, and each run builds
# incrementally: a change to the project costs a compile of net/varlink
# and a link.  The two share the source path, on which kbuild's command
# lines, and so its incremental builds, depend.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILTIN_KERNEL_RECIPE=3
as=${1:-y}
case "$as" in y|m) ;; *) die "usage: builtin-kernel.sh [y|m]" ;; esac
debug=$("$KVARLINK_TOP/scripts/debug-kernel.sh" debug)
src=$(ktree_src)
key=$( { echo "$debug $BUILTIN_KERNEL_RECIPE $as"
	cat "$KVARLINK_TOP/scripts/builtin-kernel.config"; } | sha256sum | cut -c1-12)
kdir=$KVARLINK_CACHE/builtin-$as-$key
if [ -n "${KVARLINK_NEW_ONLY:-}" ] && [ -e "$kdir/.kvarlink-configured" ]; then
	echo "$kdir"
	exit 0
fi

mkdir -p "$KVARLINK_CACHE"
exec 8>"$kdir.lock"
flock 8
frag=$kdir.config
if [ "$as" = y ]; then
	cp "$KVARLINK_TOP/scripts/builtin-kernel.config" "$frag"
else
	sed '/_DEBUG=/!s/^\(CONFIG_VARLINK[A-Z_]*\)=y$/\1=m/' \
		"$KVARLINK_TOP/scripts/builtin-kernel.config" >"$frag"
fi

jobs=$(($(nproc) + 1))
mk() { make -s -C "$src" O="$kdir" ARCH=x86_64 "$@"; }

if [ ! -e "$kdir/.kvarlink-configured" ]; then
	log "configuring the built-in kernel ($as) in $kdir, from $debug"
	rm -rf "$kdir"
	cp -a --reflink=auto "$debug" "$kdir.tmp"
	rm -f "$kdir.tmp/.kvarlink-built"
	# objtool's build records the absolute paths of the tree it was
	# built in, and would build it again in another: then every object,
	# which depends on it, would be compiled again.  They are made to
	# name the copy.
	grep -rlZ --include=".*.cmd" --include=".*.d" -F "$debug/" "$kdir.tmp/tools" | xargs -0r sed -i "s|$debug/|$kdir/|g"
	mv -T "$kdir.tmp" "$kdir"
	mapfile -t frags < <(debug_fragments debug)
	kernel_configure_merge "$src" "$kdir" "${frags[@]}" "$frag" ||
		die "the built-in kernel's config fragment does not apply"
	touch "$kdir/.kvarlink-configured"
fi
# The kernel, then W=1 on net/varlink: every file of it that was compiled
# (its .o.cmd names a source that is there) compiled again to assembly (.s), with W=1,
# which must say nothing.  The .s files have command lines of their own,
# so W=1 changes neither the objects' nor the kernel's link: a run that
# changed nothing builds nothing (kbuild makes a .s again when its source
# changed), and W=1 for the whole kernel would rebuild all of it.  A
# warning removes the .s files, so that the next run compiles them again
# and fails again.
if ! mk -j"$jobs" bzImage modules 2>"$kdir.build.log"; then
	cat "$kdir.build.log" >&2
	die "the built-in kernel does not build"
fi
asm=()
while read -r cmd source; do
	[ -e "$source" ] || continue	# a file the project no longer has
	cmd=${cmd%.o.cmd}
	asm+=("${cmd%/.*}/${cmd##*/.}.s")
done < <(cd "$kdir" && find net/varlink -name '.*.o.cmd' ! -name '.*.mod.o.cmd' \
	-exec awk '/^source_/ { print FILENAME, $3 }' {} +)
[ "${#asm[@]}" -gt 0 ] || die "no object of net/varlink was built"
if ! mk -j"$jobs" W=1 "${asm[@]}" 2>>"$kdir.build.log" ||
	grep -A3 'varlink.*\(warning\|error\)' "$kdir.build.log" >&2; then
	(cd "$kdir" && rm -f "${asm[@]}")
	cat "$kdir.build.log" >&2
	die "W=1 warnings in net/varlink"
fi
if [ "$as" = y ]; then
	grep -q ' __varlink_register_interface$' "$kdir/System.map" ||
		die "the built-in kernel has no varlink core"
else
	# every module of module/Kconfig the providers' default
	# (VARLINK) builds: not the example, which defaults to off
	for m in $(kconfig_modules | grep -vx varlink_example); do
		[ -e "$kdir/net/varlink/$m.ko" ] || die "no net/varlink/$m.ko"
	done
fi
# the uapi headers, for the kselftests (KHDR_INCLUDES)
mk headers >&2
echo "$kdir"
