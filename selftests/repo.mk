# SPDX-License-Identifier: GPL-2.0
# What this repository adds around the kselftest target (none of it goes
# into a kernel tree):
#  - <linux/varlink.h> from uapi/, the core's own sources for the
#    clients that link them, and -Werror;
#  - where kvarlinkctl's sources are: client/;
#  - intree-files, the files scripts/intree.sh copies into
#    tools/testing/selftests/varlink/ (it writes the Makefile itself,
#    without the lines that include these files).

CFLAGS += -Werror -I$(CURDIR)/../uapi -I$(CURDIR)/..
KVARLINKCTL_DIR = $(CURDIR)/../client

# lib.mk writes into OUTPUT, which the kselftest Makefile makes for it
$(if $(OUTPUT),$(shell mkdir -p $(OUTPUT)))

# the programs lib.mk builds and the scripts it runs, less those a *.mk
# file adds
intree-files:
	@printf '%s\n' config settings $(filter-out $(selfdir)/%,$(LOCAL_HDRS)) \
		$(patsubst %,%.c,$(filter-out $(VARLINK_REPO_PROGS), \
			$(notdir $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED)))) \
		$(filter-out $(VARLINK_REPO_PROGS),$(TEST_PROGS))

.PHONY: intree-files
