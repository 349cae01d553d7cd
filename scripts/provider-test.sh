#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A provider is its .c and its entry in module/Kconfig, and nothing else:
# a throwaway provider added in those two places, in a copy of this
# tree, is built out of tree against a kernel build tree (the Kbuild
# files derive its object and its option from Kconfig), and is in the
# in-tree patch series (intree.sh --patches against a kernel source
# tree): its file, its Makefile block and its Kconfig entry.  Prints TAP.
# Usage: provider-test.sh KDIR KSRC
set -uo pipefail
. "$(dirname "$0")/lib.sh"

kdir=$1 ksrc=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
mkdir -p "$tree"
(cd "$KVARLINK_TOP" && git ls-files -co --exclude-standard -z |
	xargs -0 cp --parents -t "$tree" 2>/dev/null)

cat >"$tree/module/interfaces/throwaway.c" <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
#include <linux/varlink.h>

static int throwaway_ping(struct varlink_call *call, const void *params)
{
	return varlink_reply(call);
}

static const struct varlink_method throwaway_methods[] = {
	{ .name = "Ping", .call = throwaway_ping },
};

static const struct varlink_interface throwaway_iface = {
	.idl = "interface org.kernel.throwaway\nmethod Ping() -> ()\n",
	.methods = throwaway_methods,
	.n_methods = ARRAY_SIZE(throwaway_methods),
};
module_varlink_interface(throwaway_iface, "org.kernel.throwaway");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A provider that the tests add and remove");
C
awk '/^config VARLINK_DEBUG$/ {
	print "config VARLINK_THROWAWAY"
	print "\ttristate \"org.kernel.throwaway\""
	print "\thelp"
	print "\t  A provider that the tests add and remove."
	print ""
} { print }' "$tree/module/Kconfig" >"$tmp/Kconfig" && mv "$tmp/Kconfig" "$tree/module/Kconfig"

# the throwaway alone: the core's symbols it uses are not built here
make -s -C "$kdir" M="$tree" KBUILD_MODPOST_WARN=1 module/varlink_throwaway.ko \
	>"$tmp/build.log" 2>&1
status=$?
[ $status -eq 0 ] || sed 's/^/# /' "$tmp/build.log" | tail -n 20
[ $status -eq 0 ] && [ -e "$tree/module/varlink_throwaway.ko" ]
tap_result $? "a provider added in module/: built out of tree, as varlink_throwaway.ko"

# the copy is a repository of its own, with the identity that signs the
# series (intree.sh reads it from there)
git -C "$tree" init -q &&
	git -C "$tree" config user.name "provider-test" &&
	git -C "$tree" config user.email "provider-test@localhost"
"$tree/scripts/intree.sh" --patches "$tmp/patches" "$ksrc" >"$tmp/intree.log" 2>&1
status=$?
[ $status -eq 0 ] || sed 's/^/# /' "$tmp/intree.log" | tail -n 20
series=$(cat "$tmp"/patches/*.patch 2>/dev/null)
grep -q '^+++ b/net/varlink/interfaces/throwaway\.c$' <<<"$series" &&
	grep -qF '+obj-$(CONFIG_VARLINK_THROWAWAY) += varlink_throwaway.o' <<<"$series" &&
	grep -q '^+config VARLINK_THROWAWAY$' <<<"$series"
tap_result $? "a provider added in module/: in the in-tree series, with its Makefile block and Kconfig entry"
tap_summary provider-test
