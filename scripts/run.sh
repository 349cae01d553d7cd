#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make run: boot the stock kernel with varlink.ko loaded and show the demo;
# with a terminal attached, stay in a guest shell until "exit".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$KVARLINK_TOP/scripts/deps.sh" build vm go
out="$KVARLINK_OUT/vm-run"
if [ -t 0 ] && [ -t 1 ]; then
	"$KVARLINK_TOP/scripts/vm.sh" stock shell "$out"
else
	"$KVARLINK_TOP/scripts/vm.sh" stock demo "$out"
	# the serial line ends in CR LF
	tr -d '\r' <"$out/result.txt" | grep -qx 'verdict: pass'
fi
