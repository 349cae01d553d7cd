#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the modules against a kernel build tree, in a copy of the sources
# so that builds for several kernels do not overwrite each other.
# Usage: build-module.sh KDIR OUTDIR  (the .ko files land in OUTDIR/module)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1 out=$2
mkdir -p "$out"
rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
	--exclude='*.mod*' --exclude=modules.order --exclude=Module.symvers \
	"$KVARLINK_TOP/Kbuild" "$KVARLINK_TOP/module" "$KVARLINK_TOP/uapi" "$out/"
# a failed build must not leave the modules of an earlier one to be tested
if ! make -s -C "$kdir" M="$out" W=1 ${VARLINK_DEBUG:+VARLINK_DEBUG=y} modules 2>&1 |
	{ grep -v 'Skipping BTF generation' || true; }; then
	die "the module build against $kdir failed"
fi
ls "$out"/module/*.ko >/dev/null
