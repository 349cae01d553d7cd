#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a test kernel under qemu (TCG) with the modules and tests.
# Usage: vm.sh stock|6.12|7.3|debug check|demo|shell OUTDIR
#
# check: the console goes to OUTDIR/console.log and the guest's results to
#        OUTDIR/result.txt through a second serial port; exit status 0 when
#        the VM ran to its end (the caller judges the results).
# demo:  the console on stdout.  shell: the console on this terminal.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$1 mode=$2 out=$3
vm_kernel "$kernel"
export EXTRA_MODULES=$extra_modules
limit=600
if [ "$kernel" = debug ]; then
	# every reply is checked against its IDL there
	export VARLINK_DEBUG=y
	limit=1500
fi

mkdir -p "$out"
"$KVARLINK_TOP/scripts/build-module.sh" "$kdir" "$out/build" $kroot
make -s -C "$KVARLINK_TOP/selftests" OUTPUT="$KVARLINK_OUT/selftests" \
	KSFT_DIR="$(ksrc_ensure)/tools/testing/selftests"
"$KVARLINK_TOP/scripts/initramfs.sh" "$out/build/module" \
	"$KVARLINK_OUT/selftests" "$out/initramfs.cpio"

vm_qemu "$image" "$out/initramfs.cpio" "$mode" 2
rm -f "$out/result.txt" "$out/console.log"

case "$mode" in
check)
	log "booting the $kernel kernel ($(basename "$image")); console in $out/console.log"
	timeout --foreground "$limit" "${qemu[@]}" \
		-serial file:"$out/console.log" -serial file:"$out/result.txt" ||
		log "qemu ended with status $? (timeout is $limit s)"
	;;
demo)
	timeout --foreground "$limit" "${qemu[@]}" \
		-serial stdio -serial file:"$out/result.txt" | tee "$out/console.log"
	;;
shell)
	"${qemu[@]}" -serial mon:stdio -serial file:"$out/result.txt"
	;;
*) die "unknown mode '$mode'" ;;
esac
