# SPDX-License-Identifier: GPL-2.0
#
# make            build the modules against KDIR (default: the running
#                 kernel's build tree, else the newest linux-headers-*);
#                 the test modules too with VARLINK_TESTS=y
# make install    modules_install and depmod
# make lint       checkpatch --strict and sparse, fails on any finding; the
#                 in-tree patch series (scripts/intree.sh) too
# make check      every test: lint, DKMS, host tests, KUnit and kselftests
#                 in qemu on kernels 6.1, 6.12, 7.3, a debug 6.1 (KASAN),
#                 a KCSAN 6.1 and a 6.1 with varlink built in
# make check-long make check, and the fault run: the selftests while
#                 failslab fails allocations of our modules (debug 6.1)
# make deb        the Debian packages kvarlink-dkms and kvarlinkctl into
#                 build/deb/ (dpkg-buildpackage), lintian clean
# make dkms       (as root) the tree as DKMS module kvarlink/VERSION in
#                 /usr/src, built and installed for KDIR's kernel (and by
#                 DKMS for every kernel installed later)
# make run        boot the stock kernel with the module and show a demo
# make client     kvarlinkctl, the varlink client (client/; its Makefile
#                 has install, for a distribution's package)
# make host-test  the protocol core built and tested in userspace
# make fuzz       libFuzzer over the protocol core (FUZZ_SECONDS per target)
# make bench-json the tokenizer against json-c, cJSON and jansson
# make bench      varlink.ko against AF_UNIX ping-pong, genetlink and Go in
#                 the stock VM, plus bench-json; table in build/bench.txt

KDIR ?= $(shell $(CURDIR)/scripts/kdir.sh)
KVARLINK_VERSION := $(shell cat $(CURDIR)/VERSION)
# KDIR's kernel as uname -r names it: Debian's headers say "6.1.192" in
# include/config/kernel.release, "6.1.0-57-amd64" in utsrelease.h
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' $(KDIR)/include/generated/utsrelease.h)
DKMS_SRC := /usr/src/kvarlink-$(KVARLINK_VERSION)
FUZZ_SECONDS ?= 60

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KRELEASE)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf build selftests/out
	-$(MAKE) -C selftests/host clean
	-$(MAKE) -C selftests/fuzz clean
	-$(MAKE) -C client clean

lint:
	scripts/deps.sh build lint kernels
	scripts/lint.sh

check:
	scripts/check.sh

deb:
	scripts/deps.sh deb
	scripts/deb.sh

# what the package's dh_dkms does: dkms.conf gets the version
dkms:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r Kbuild VERSION module uapi $(DKMS_SRC)/
	rm -rf $(DKMS_SRC)/module/tests
	sed 's/#MODULE_VERSION#/$(KVARLINK_VERSION)/' dkms.conf >$(DKMS_SRC)/dkms.conf
	dkms install kvarlink/$(KVARLINK_VERSION) -k $(KRELEASE)

check-long:
	scripts/check.sh --long

run:
	scripts/run.sh

client:
	$(MAKE) -C client

host-test:
	scripts/deps.sh host
	$(MAKE) -C selftests/host run

fuzz:
	scripts/deps.sh host
	$(MAKE) -C selftests/fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS)

bench-json:
	scripts/deps.sh host bench
	$(MAKE) -C selftests/host bench

bench:
	scripts/bench.sh

.PHONY: all modules install clean lint check check-long deb dkms run client \
	host-test fuzz bench-json bench
