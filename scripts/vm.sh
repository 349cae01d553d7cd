#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a test kernel under qemu (TCG) with the modules and tests.
# Usage: vm.sh stock|debug check|demo|shell OUTDIR
#
# check: the console goes to OUTDIR/console.log and the guest's results to
#        OUTDIR/result.txt through a second serial port; exit status 0 when
#        the VM ran to its end (the caller judges the results).
# demo:  the console on stdout.  shell: the console on this terminal.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=$1 mode=$2 out=$3
case "$kernel" in
stock)
	rel=$(stock_release)
	[ -n "$rel" ] || die "no stock kernel: install linux-image-$STOCK_FLAVOUR and linux-headers-$STOCK_FLAVOUR"
	kdir=/usr/src/linux-headers-$rel
	image=/boot/vmlinuz-$rel
	# built into the debug kernel, modules of the stock one
	net=/lib/modules/$rel/kernel/drivers/net
	export EXTRA_MODULES="$net/dummy.ko $net/veth.ko"
	limit=600
	;;
debug)
	kdir=$("$KVARLINK_TOP/scripts/debug-kernel.sh")
	image=$kdir/arch/x86/boot/bzImage
	# every reply is checked against its IDL there
	export VARLINK_DEBUG=y
	limit=1500
	;;
*) die "unknown kernel '$kernel'" ;;
esac

mkdir -p "$out"
"$KVARLINK_TOP/scripts/build-module.sh" "$kdir" "$out/build"
make -s -C "$KVARLINK_TOP/selftests" OUTPUT="$KVARLINK_OUT/selftests" \
	KSFT_DIR="$(ksrc_ensure)/tools/testing/selftests"
"$KVARLINK_TOP/scripts/initramfs.sh" "$out/build/module" \
	"$KVARLINK_OUT/selftests" "$out/initramfs.cpio"

cmdline="console=ttyS0 kvarlink.mode=$mode panic=-1 oops=panic panic_on_warn=1"
cmdline="$cmdline hung_task_panic=1 softlockup_panic=1 log_buf_len=4M quiet loglevel=4"
# a KUnit case may run minutes under KASAN in TCG on a busy machine; a real
# hang still panics long before the outer timeout
cmdline="$cmdline sysctl.kernel.hung_task_timeout_secs=300"
qemu=(qemu-system-x86_64 -accel tcg -cpu max -m 1536 -smp 2
	-nodefaults -display none -no-reboot -monitor none
	-kernel "$image" -initrd "$out/initramfs.cpio" -append "$cmdline")
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
