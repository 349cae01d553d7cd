# SPDX-License-Identifier: GPL-2.0
# Unloading the core runs after every other test: it removes varlink.ko
# and the test provider with clients connected, then loads both again.
TEST_PROGS_LAST += varlink_core_unload
