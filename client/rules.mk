# SPDX-License-Identifier: GPL-2.0
# kvarlinkctl's build, install and clean rules, for the Makefile beside
# this file (this repository's client/Makefile, or tools/varlink/Makefile
# of the in-tree form): it sets srcdir, VERSION, KVCTL_CPPFLAGS, SRCS and
# DEPS, then includes this.

prefix ?= /usr/local
bindir ?= $(prefix)/bin
mandir ?= $(prefix)/share/man
INSTALL ?= install

ifneq ($(O),)
out := $(patsubst %/,%,$(O))/
endif

CFLAGS ?= -O2 -g
KVCTL_CFLAGS := -std=gnu11 -Wall -Wextra

all: $(out)kvarlinkctl

$(out)kvarlinkctl: $(DEPS) $(srcdir)/Makefile $(srcdir)/rules.mk
	$(if $(out),@mkdir -p $(out))
	$(CC) $(CPPFLAGS) $(KVCTL_CPPFLAGS) $(CFLAGS) $(KVCTL_CFLAGS) \
		$(LDFLAGS) -o $@ $(SRCS) $(LDLIBS)

install: $(out)kvarlinkctl
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1
	$(INSTALL) -m 0755 $(out)kvarlinkctl $(DESTDIR)$(bindir)/kvarlinkctl
	$(INSTALL) -m 0644 $(srcdir)/kvarlinkctl.1 \
		$(DESTDIR)$(mandir)/man1/kvarlinkctl.1

uninstall:
	rm -f $(DESTDIR)$(bindir)/kvarlinkctl \
		$(DESTDIR)$(mandir)/man1/kvarlinkctl.1

clean:
	rm -f $(out)kvarlinkctl

.PHONY: all install uninstall clean
