# SPDX-License-Identifier: GPL-2.0
TEST_GEN_PROGS += varlink_fastpath
