# SPDX-License-Identifier: GPL-2.0
# What this repository adds around the kselftest target (none of it goes
# into a kernel tree):
#  - <linux/varlink.h> from uapi/, the core's own sources for the
#    clients that link them, and -Werror;
#  - $(OUTPUT)/list, the order scripts/guest-init.sh runs the tests in
#    (with the scripts copied beside the programs):
#    the kselftest programs, then the scripts of certification.mk and
#    varlinkctl.mk, and varlink_core_unload last of all, as unloading the
#    core also unloads the providers those scripts use;
#  - intree-files, the files scripts/intree.sh copies into
#    tools/testing/selftests/varlink/ (it writes the Makefile itself,
#    without the lines that include these files).

CFLAGS += -Werror -I$(CURDIR)/../uapi -I$(CURDIR)/..

# lib.mk writes into OUTPUT, which the kselftest Makefile makes for it
$(if $(OUTPUT),$(shell mkdir -p $(OUTPUT)))

VARLINK_LAST := varlink_core_unload

all: $(OUTPUT)/list

# the scripts beside the programs, as "make install" would put them
$(OUTPUT)/list: FORCE
	@install -m 0755 $(TEST_PROGS) $(OUTPUT)/
	@printf '%s\n' $(filter-out $(VARLINK_LAST),$(notdir $(TEST_GEN_PROGS))) \
		$(TEST_PROGS) $(VARLINK_LAST) > $@

# the programs lib.mk builds, less those a *.mk file adds
intree-files:
	@printf '%s\n' config settings $(filter-out $(selfdir)/%,$(LOCAL_HDRS)) \
		$(patsubst %,%.c,$(filter-out $(VARLINK_REPO_PROGS), \
			$(notdir $(TEST_GEN_PROGS) $(TEST_GEN_PROGS_EXTENDED))))

FORCE:

.PHONY: intree-files FORCE
