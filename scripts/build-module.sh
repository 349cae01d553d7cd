#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the modules, the test modules too, against a kernel build tree.
# Usage: build-module.sh KDIR OUTDIR [ROOT]  (the .ko files land in
# OUTDIR/module; with ROOT, KDIR is a path inside that Debian root, made
# by debian-kernel.sh, and the build runs there, with its own compiler)
# Environment: VARLINK_DEBUG=y, and KBUILD_EXTRA (more make arguments,
# e.g. C=2 for sparse).
# Callers share an OUTDIR (lint.sh and the VM runs: one build of a
# kernel's modules serves both): one at a time builds in it.
# OUTDIR/build.log is what the compiler said when it last compiled.
#
# The build tree is kept, one for each kernel tree and VARLINK_DEBUG
# (in the cache, or in ROOT), so that a run compiles only what changed
# since the last one, in another clone too: the sources are copied into
# it by their content, and what did not change keeps its time, and so
# its object.  What the compiler says must be said on every run: after a
# build that failed or in which it said anything, the objects go, and
# the next build compiles everything again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1 out=$2 root=${3:-}
key=$(printf '%s\n' "$kdir" "$root" "${VARLINK_DEBUG:-}" | sha256sum | cut -c1-12)
base=$KVARLINK_CACHE/modules
[ -n "$root" ] && base=$root/build
src=$base/$key
# the trees of kernels not built for a month
find "$base" -mindepth 1 -maxdepth 1 -mtime +30 -exec rm -rf {} + 2>/dev/null || :
mkdir -p "$out" "$src"
exec 9>"$out.lock"
flock 9
exec 8>"$src.lock"
flock 8
touch "$src"
rsync -rl --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
	--exclude='*.mod*' --exclude=modules.order --exclude=Module.symvers \
	--exclude=build.log \
	"$KVARLINK_TOP/Kbuild" "$KVARLINK_TOP/VERSION" "$KVARLINK_TOP/module" "$KVARLINK_TOP/uapi" "$src/"
args=(-j"$(nproc)" -C "$kdir" M="${src#"$root"}" W=1 VARLINK_TESTS=y ${VARLINK_DEBUG:+VARLINK_DEBUG=y}
	${KBUILD_EXTRA:-} modules)
run=()
[ -n "$root" ] && run=(in_root "$root")
# a failed build must not leave the modules of an earlier one to be tested
mkdir -p "$out/module"
rm -f "$out"/module/*.ko
unkeep() { find "$src" -name '*.o' -delete; }
# what the compiler said, on stdout and, when it compiled, in build.log;
# kbuild's lines of what it does are left out
if ! "${run[@]}" make "${args[@]}" >"$out/make.log" 2>&1; then
	unkeep
	cat "$out/make.log"
	die "the module build against $kdir${root:+ in $root} failed"
fi
said() { grep -v '^  [A-Z]\{2,\} \|^make\|Skipping BTF generation' "$out/make.log" || :; }
if grep -q '^  CC \[M\] ' "$out/make.log" || [ ! -e "$src/build.log" ]; then
	said >"$src/build.log"
fi
cp "$src/build.log" "$out/build.log"
[ -z "$(said)" ] || unkeep
said
# the modules of this build, which modules.order lists (each kernel
# its own way: NAME.ko or NAME.o, a path or not): the tree is shared by
# every checkout that builds against this kernel, and holds the modules
# of their providers too
sed 's|.*/||; s/\.k\{0,1\}o$//' "$src/modules.order" | while read -r m; do
	cp "$src/module/$m.ko" "$out/module/"
done
ls "$out"/module/*.ko >/dev/null
