#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the modules, the test modules too, against a kernel build tree, in
# a copy of the sources so that builds for several kernels do not
# overwrite each other.
# Usage: build-module.sh KDIR OUTDIR [ROOT]  (the .ko files land in
# OUTDIR/module; with ROOT, KDIR is a path inside that Debian root, made
# by debian-kernel.sh, and the build runs there, with its own compiler)
# Environment: VARLINK_DEBUG=y, and KBUILD_EXTRA (more make arguments,
# e.g. C=2 for sparse).
# Callers share an OUTDIR (lint.sh and the VM runs: one build of a
# kernel's modules serves both): one at a time builds in it, and
# OUTDIR/build.log keeps what the compiler said the last time it
# compiled anything, which a build that finds everything made leaves.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1 out=$2 root=${3:-}
src=$out
# in the root, under a name of its own for each OUTDIR
[ -n "$root" ] && src="$root/build/$(printf '%s' "$out" | sha256sum | cut -c1-12)"
mkdir -p "$out" "$src"
exec 9>"$out.lock"
flock 9
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
	--exclude='*.mod*' --exclude=modules.order --exclude=Module.symvers \
	"$KVARLINK_TOP/Kbuild" "$KVARLINK_TOP/VERSION" "$KVARLINK_TOP/module" "$KVARLINK_TOP/uapi" "$src/"
args=(-j"$(nproc)" -C "$kdir" M="${src#"$root"}" W=1 VARLINK_TESTS=y ${VARLINK_DEBUG:+VARLINK_DEBUG=y}
	${KBUILD_EXTRA:-} modules)
run=()
[ -n "$root" ] && run=(in_root "$root")
# a failed build must not leave the modules of an earlier one to be tested
rm -f "$src"/module/*.ko
# what the compiler said, on stdout and, when it compiled, in build.log;
# kbuild's lines of what it does are left out
if ! "${run[@]}" make "${args[@]}" >"$out/make.log" 2>&1; then
	cat "$out/make.log"
	die "the module build against $kdir${root:+ in $root} failed"
fi
said() { grep -v '^  [A-Z]\{2,\} \|^make\|Skipping BTF generation' "$out/make.log" || :; }
if grep -q '^  CC \[M\] ' "$out/make.log"; then said >"$out/build.log"; fi
said
if [ -n "$root" ]; then
	mkdir -p "$out/module"
	rm -f "$out"/module/*.ko
	cp "$src"/module/*.ko "$out/module/"
fi
ls "$out"/module/*.ko >/dev/null
