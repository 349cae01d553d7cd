# SPDX-License-Identifier: GPL-2.0
# org.kernel.system and org.kernel.process (varlink_system.ko and
# varlink_process.ko), checked against /proc and /sys in the guest.
TEST_GEN_PROGS += varlink_system varlink_process

$(OUTPUT)/varlink_system $(OUTPUT)/varlink_process: kernel_state_test.h
