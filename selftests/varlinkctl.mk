# SPDX-License-Identifier: GPL-2.0
# systemd's varlinkctl against the kernel (varlink_varlinkctl.sh); with
# it, systemd-sysctl and procps's sysctl (varlink_sysctl's parity tests).
# varlinkctl comes from Debian sid: scripts/varlinkctl.sh fetches it once
# per version into the cache and lays it into $(OUTPUT)/varlinkctl/ with
# libsystemd-shared, the libraries ldd names and the ELF loader, so that
# it runs in the initramfs, which has no libc.  Failing to fetch it fails
# the build.

TEST_PROGS += varlink_varlinkctl.sh
VARLINK_REPO_PROGS += varlink_varlinkctl.sh
all: $(OUTPUT)/varlinkctl/varlinkctl

$(OUTPUT)/varlinkctl/varlinkctl: $(CURDIR)/../scripts/varlinkctl.sh
	$(CURDIR)/../scripts/varlinkctl.sh $(OUTPUT)/varlinkctl

# the directory whole, libraries and loader with the program
install: install-varlinkctl
install-varlinkctl: $(OUTPUT)/varlinkctl/varlinkctl
	@mkdir -p $(INSTALL_PATH)
	rsync -a $(OUTPUT)/varlinkctl $(INSTALL_PATH)/

.PHONY: install-varlinkctl
