# SPDX-License-Identifier: GPL-2.0
# org.kernel.network: links made with rtnetlink, checked against sysfs.
TEST_GEN_PROGS += varlink_network
