# SPDX-License-Identifier: GPL-2.0
# kcsan_stress: every kind of concurrent use at once, for the KCSAN
# kernel.  Built, but not in the list every kernel runs: vm.sh names it
# for the kcsan run.
TEST_GEN_FILES += kcsan_stress
