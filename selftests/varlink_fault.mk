# SPDX-License-Identifier: GPL-2.0
# The fault run (scripts/guest-init.sh, mode fault): varlink_fault calls
# the server while failslab fails its allocations.  Built, but not in
# the list every kernel runs: vm.sh names it for the fault run.
TEST_GEN_FILES += varlink_fault
