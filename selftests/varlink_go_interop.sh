#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The Go varlink library against the kernel: varlink-go-interop prints
# its own TAP (every interface description parsed, every read method of
# org.kernel.* called and decoded); its exit status is the verdict.
exec "$(dirname "$0")/varlink-go-interop" -varlink=unix:@org.kernel.varlink
