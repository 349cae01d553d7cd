#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build tree to build against: the running kernel's, or
# else (containers, build machines) the newest installed headers package.
set -euo pipefail

kdir=/lib/modules/$(uname -r)/build
if [ -e "$kdir/Makefile" ]; then
	echo "$kdir"
	exit 0
fi
for d in $(ls -d /usr/src/linux-headers-*/ 2>/dev/null | sort -V -r); do
	# a full build tree, not the arch-independent "-common" half
	if [ -e "$d/Makefile" ] && [ -e "$d/Module.symvers" ]; then
		echo "kvarlink: no build tree for the running kernel $(uname -r); using ${d%/}" >&2
		echo "${d%/}"
		exit 0
	fi
done
echo "kvarlink: no kernel build tree found; install linux-headers-amd64 or set KDIR=" >&2
exit 1
