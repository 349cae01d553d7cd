# SPDX-License-Identifier: GPL-2.0
# The varlink certification (org.varlink.certification, served by
# varlink_certification.ko) and interoperability with other clients:
#  - varlink_certification: our strict client, which also makes mistakes
#    on purpose and checks that the server notices;
#  - varlink_go_certification.sh: Debian's Go certification client
#    (golang-github-varlink-go-dev), built here from its sources;
#  - varlink_go_interop.sh: a Go program of ours that reads every
#    interface with the Go varlink library;
# varlink_certification links the core's tokenizer, module/json.c, built
# behind the shim of selftests/host (as kvarlinkctl, client/, does).
# Go builds offline, in GOPATH mode against /usr/share/gocode, static.

# Included after lib.mk, so the names carry $(OUTPUT)/ here and "all"
# is told of them.
CERT_CLIENTS := $(addprefix $(OUTPUT)/,varlink-go-certification \
		varlink-go-interop)
TEST_GEN_PROGS += $(OUTPUT)/varlink_certification
VARLINK_REPO_PROGS += varlink_certification
TEST_PROGS += varlink_go_certification.sh varlink_go_interop.sh
VARLINK_REPO_PROGS += varlink_go_certification.sh varlink_go_interop.sh
TEST_GEN_FILES += $(CERT_CLIENTS)
all: $(OUTPUT)/varlink_certification $(CERT_CLIENTS)

CORE_JSON := ../module/json.c ../module/json_number.c \
	     ../module/tests/json_extra.c host/shim.c
CORE_JSON_DEPS := $(CORE_JSON) ../module/json.h ../module/json_number.h \
		  ../module/tests/json_extra.h ../module/utf8.h \
		  ../module/limits.h $(wildcard host/include/*/*.h)
CORE_JSON_CFLAGS := -I$(CURDIR)/host/include

$(OUTPUT)/varlink_certification: varlink_certification.c varlink_test.h \
		$(CORE_JSON_DEPS)
	$(CC) $(CFLAGS) $(CORE_JSON_CFLAGS) -o $@ $< $(CORE_JSON) $(LDLIBS)


GOPATH_DEBIAN := /usr/share/gocode
# the build cache lives in a directory of its own, not in OUTPUT (which
# goes into the initramfs whole)
GO_ENV := CGO_ENABLED=0 GO111MODULE=off GOPATH=$(GOPATH_DEBIAN) GOFLAGS= \
	  GOPROXY=off GOCACHE=$$tmp/cache HOME=$$tmp
GO_BUILD = tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && $(GO_ENV) go build
GO_CERT := $(GOPATH_DEBIAN)/src/github.com/varlink/go/cmd/varlink-go-certification
GO_LIB := $(wildcard $(GOPATH_DEBIAN)/src/github.com/varlink/go/varlink/*.go \
		     $(GOPATH_DEBIAN)/src/github.com/varlink/go/varlink/*/*.go)

$(OUTPUT)/varlink-go-certification: $(GO_LIB) $(wildcard $(GO_CERT)/*.go $(GO_CERT)/*/*.go)
	$(GO_BUILD) -o $@ github.com/varlink/go/cmd/varlink-go-certification

$(OUTPUT)/varlink-go-interop: go/varlink_interop/main.go $(GO_LIB)
	cd go/varlink_interop && $(GO_BUILD) -o $@ .
