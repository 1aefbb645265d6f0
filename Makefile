# wslgpu — plain Makefile. Targets:
#   make                build ./wslgpu (and build/)
#   make check          build and run every test (unit, end-to-end, kb) in parallel;
#                       T='NAME NAME:CASE' runs only those (doc/testing.md)
#   make fakes          build the fake vendor libraries the fixtures use (tools/fixture)
#   make check SANITIZE=1   the same under AddressSanitizer + UBSan (what CI runs)
#   make asan           build the sanitizer binary only (build-asan/)
#   make install PREFIX=/usr/local DESTDIR=   (binary, man pages, completions)
#   make install-systemd   the smoke test's systemd user timer (deploy/systemd/)
#   make uninstall      remove exactly what install and install-systemd installed
#   make static         build-static/wslgpu, linked statically (no libcurl)
#   make bench          run the benchmarks in bench/
#   make fuzz           build the libFuzzer targets (clang)
#   make clean
#
# BUILD selects the output directory, so that several builds can coexist.

# One job per CPU unless the command line says -jN (which wins); not beside
# clean, which would race the build, and not in a sub-make, which shares
# its parent's jobs (a -j of its own would only warn and reset them).
ifeq ($(filter clean,$(MAKECMDGOALS))$(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

CC ?= cc
PREFIX ?= /usr/local
DESTDIR ?=
SANITIZE ?=

ifeq ($(SANITIZE),)
BUILD ?= build
OPT = -O2 -D_FORTIFY_SOURCE=3
SAN =
else
BUILD ?= build-asan
OPT = -O1
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

# The commit built, "-dirty" when tracked files differ from it (a build of
# uncommitted changes must not name a commit that lacks them).
COMMIT := $(shell c=`git rev-parse --short HEAD 2>/dev/null` || c=unknown; \
	[ "$$c" = unknown ] || git diff --quiet HEAD -- 2>/dev/null || c="$$c-dirty"; echo "$$c")
WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2 -Wno-format-nonliteral
HARDEN = -fstack-protector-strong -fPIE
CPPFLAGS += -D_GNU_SOURCE -I$(BUILD)/gen
CFLAGS ?= -g
CFLAGS += -std=c11 $(WARN) $(OPT) $(HARDEN) $(SAN)
LDFLAGS += -pie -Wl,-z,relro,-z,now $(SAN)
# libcurl (smoke --push), libarchive (report) and SQLite (history, smoke
# --record) are not linked: they are opened at use (src/core/dynlib.h), so
# that no other command loads the ~40 libraries they bring or binds
# SQLite's 1,600 symbols (doc/architecture.md). At run time they are the
# packages libcurl4, libarchive13 and libsqlite3-0.
LDLIBS = -linih -ldl -lm

LIB_SRC := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
# Generated into $(BUILD)/gen (rules below): the knowledge base and its
# signature matcher as tables (tools/kbgen.c), and text the binary carries
# as C strings (tools/text2c.awk): the PTX kernels, the probe script.
GEN_OBJ := $(BUILD)/gen/kb_tables.o $(BUILD)/gen/kernels_ptx.o $(BUILD)/gen/pyprobe_script.o
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC)) $(GEN_OBJ)
KB_SRC := $(sort $(wildcard src/kb/*.kb))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
UNIT_OBJ := $(UNIT_BIN:=.o)
# Fake vendor libraries: tests/fakes/NAME.c becomes $(BUILD)/fakes/SONAME,
# where SONAME is on the source's "// soname: ..." line.
FAKE_SRC := $(wildcard tests/fakes/*.c)
fake_soname = $(shell sed -n 's,^// soname: *,,p' $(1))
FAKE_LIB := $(foreach f,$(FAKE_SRC),$(BUILD)/fakes/$(call fake_soname,$(f)))

.PHONY: all check asan install install-systemd uninstall clean bench fuzz fakes
all: wslgpu

# ---- The embedded PTX kernels (src/gpu/kernels.cu) ----
# The checked-in src/gpu/kernels.ptx is embedded in the binary as the C string
# wslgpu_kernels_ptx, so `make` never needs nvcc.
# `make ptx` regenerates kernels.ptx from kernels.cu when nvcc is installed,
# pinned to PTX ISA 7.0 / sm_50 so that old drivers can JIT it (see the
# comment at the top of src/gpu/kernels.cu), and checks it with ptxas.
NVCC ?= nvcc
PTXAS ?= ptxas
.PHONY: ptx
ptx:
	@command -v $(NVCC) >/dev/null || { echo "make ptx: $(NVCC) not found" >&2; exit 1; }
	{ echo '// Generated from src/gpu/kernels.cu by `make ptx`; do not edit by hand.'; \
	  $(NVCC) -ptx -arch=compute_75 -o - src/gpu/kernels.cu | \
	  sed -e 's/^\.version .*$$/.version 7.0/' -e 's/^\.target .*$$/.target sm_50/'; \
	} > src/gpu/kernels.ptx.tmp
	$(PTXAS) -arch=sm_75 -o /dev/null src/gpu/kernels.ptx.tmp
	mv src/gpu/kernels.ptx.tmp src/gpu/kernels.ptx
# ---- end of the PTX block ----

wslgpu: $(BUILD)/wslgpu
	@if [ "$(BUILD)" = build ]; then ln -sf $(BUILD)/wslgpu wslgpu; fi

# Only buildinfo.o carries the commit. $(BUILD)/commit holds it and is
# rewritten only when HEAD moves, so a new commit rebuilds that one object.
COMMIT_FILE := $(BUILD)/commit
$(shell mkdir -p $(BUILD) && [ "`cat $(COMMIT_FILE) 2>/dev/null`" = "$(COMMIT)" ] || \
	echo "$(COMMIT)" > $(COMMIT_FILE))
$(BUILD)/src/core/buildinfo.o: CPPFLAGS += -DWSLGPU_COMMIT='"$(COMMIT)"'
$(BUILD)/src/core/buildinfo.o: $(COMMIT_FILE)

$(BUILD)/wslgpu: $(BUILD)/src/cli/main.o $(BUILD)/libwslgpu.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libwslgpu.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Each object depends on the headers it includes, as the compiler lists
# them in its .d file (included at the end): a header change rebuilds its
# users only. -MP: a header that is deleted breaks no build.
DEPFLAGS = -MMD -MP
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# ---- The knowledge base, compiled at build time ----
# tools/kbgen parses src/kb/*.kb with src/kb/kb.c's parser, builds the
# explain matcher with src/explain's code and writes them as C tables, with
# one constant per entry id in kb_ids.h; a broken entry stops make with
# "file:line: message". It is a host program built without sanitizers or
# fuzzing instrumentation, so HOSTCC is the compiler alone.
HOSTCC ?= $(firstword $(CC))
HOST_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g
KBGEN_SRC := tools/kbgen.c src/kb/kb.c src/core/layers.c src/explain/matcher.c src/explain/ac.c \
	src/explain/literal.c src/explain/pattern.c src/explain/codes.c src/explain/rx.c \
	src/explain/normalize.c src/core/strbuf.c src/core/text.c src/core/json.c src/core/result.c \
	src/core/error.c src/core/utf8.c
KBGEN_OBJ := $(patsubst %.c,$(BUILD)/host/%.o,$(KBGEN_SRC))
KBGEN := $(BUILD)/host/kbgen
$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOST_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(KBGEN): $(KBGEN_OBJ)
	$(HOSTCC) -o $@ $^
# kbgen rewrites an output only when its text changes (a new cause does not
# rebuild every user of kb_ids.h); the stamp records that it ran.
KB_GEN := $(BUILD)/gen/kb_tables.c $(BUILD)/gen/kb_tables.bin $(BUILD)/gen/kb_ids.h
$(BUILD)/gen/kb.stamp: $(KB_SRC) $(KBGEN)
	@mkdir -p $(dir $@)
	$(KBGEN) $(KB_GEN) $(KB_SRC)
	@touch $@
$(KB_GEN): $(BUILD)/gen/kb.stamp ;
# The tables include the automaton's with .incbin, which .d files miss.
$(BUILD)/gen/kb_tables.o: $(BUILD)/gen/kb_tables.bin
$(BUILD)/gen/kb_tables.o: CPPFLAGS += -Isrc
# Every object may name entries: the header exists before the first one.
$(filter-out $(GEN_OBJ),$(LIB_OBJ)) $(BUILD)/src/cli/main.o $(UNIT_OBJ): | $(BUILD)/gen/kb_ids.h
# ---- end of the knowledge base block ----

$(BUILD)/gen/kernels_ptx.c: src/gpu/kernels.ptx tools/text2c.awk
	@mkdir -p $(dir $@)
	awk -v name=wslgpu_kernels_ptx -f tools/text2c.awk $< > $@.tmp && mv $@.tmp $@
# The framework probe script, passed to python3 with -c (never written to a file).
$(BUILD)/gen/pyprobe_script.c: src/probes/pyprobe.py tools/text2c.awk
	@mkdir -p $(dir $@)
	awk -v name=pyprobe_script -f tools/text2c.awk $< > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Unit tests: one cmocka binary per tests/unit/test_*.c, compiled apart from
# its link, so that a new library (every commit's buildinfo.o) relinks the
# tests and recompiles none. test_outputs reads the pushed metrics back with
# libcurl itself (the tool opens it at use).
$(BUILD)/tests/test_outputs: LDLIBS += -lcurl
# test_history reads the databases back with SQLite itself.
$(BUILD)/tests/test_history: LDLIBS += -lsqlite3
$(BUILD)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc $(DEPFLAGS) -c -o $@ $<
$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/libwslgpu.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libwslgpu.a -lcmocka $(LDLIBS)

# The fakes are built without sanitizers, as a vendor library would be.
define fake_rule
$(BUILD)/fakes/$(call fake_soname,$(1)): $(1)
	@mkdir -p $(BUILD)/fakes
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g -fPIC -shared \
		-Wl,-soname,$(call fake_soname,$(1)) -o $$@ $(1) -ldl
endef
$(foreach f,$(FAKE_SRC),$(eval $(call fake_rule,$(f))))

fakes: $(FAKE_LIB)

asan:
	$(MAKE) SANITIZE=1 $(BUILD)/wslgpu

# make check T='libs core:test_kb_parse' runs only those (tests/run-tests.sh).
# (MAKEFLAGS emptied: a make a test runs is a make of its own, not a job of
# this one's jobserver.)
check: $(BUILD)/wslgpu $(UNIT_BIN) $(FAKE_LIB)
	MAKEFLAGS= BUILD=$(BUILD) sh tests/run-tests.sh $(T)

bench: $(BUILD)/wslgpu
	BUILD=$(BUILD) sh bench/run-benchmarks.sh

fuzz:
	$(MAKE) -f fuzz/Makefile BUILD=build-fuzz LDLIBS='$(LDLIBS)'

# ---- install, uninstall, static ----
# make install PREFIX=/usr/local DESTDIR=/tmp/stage: the binary, the man pages
# (wslgpu.1, and wslgpu-COMMAND.1 for each command, as git names its pages)
# and the bash and zsh completions; make uninstall removes exactly those.
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
INSTALL ?= install
MANPAGES = wslgpu.1 wslgpu-check.1 wslgpu-explain.1 wslgpu-bench.1 wslgpu-watch.1 \
	wslgpu-smoke.1 wslgpu-history.1 wslgpu-report.1 wslgpu-fix.1 wslgpu-kb.1
INSTALLED = $(DESTDIR)$(BINDIR)/wslgpu $(MANPAGES:%=$(DESTDIR)$(MANDIR)/man1/%) \
	$(DESTDIR)$(BASHCOMPDIR)/wslgpu $(DESTDIR)$(ZSHCOMPDIR)/_wslgpu

# make install-systemd: wslgpu-smoke.service and .timer as user units (in
# systemd's search path for /usr and /usr/local), their ExecStart pointed at
# $(BINDIR)/wslgpu; enabling them is each user's choice (doc/fleet.md).
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
UNITS = wslgpu-smoke.service wslgpu-smoke.timer
INSTALLED_UNITS = $(addprefix $(DESTDIR)$(SYSTEMDUSERDIR)/,$(UNITS))

install-systemd:
	$(INSTALL) -d $(DESTDIR)$(SYSTEMDUSERDIR)
	sed 's|^ExecStart=/usr/local/bin/wslgpu |ExecStart=$(BINDIR)/wslgpu |' \
		deploy/systemd/wslgpu-smoke.service > $(DESTDIR)$(SYSTEMDUSERDIR)/wslgpu-smoke.service.tmp
	chmod 644 $(DESTDIR)$(SYSTEMDUSERDIR)/wslgpu-smoke.service.tmp
	mv $(DESTDIR)$(SYSTEMDUSERDIR)/wslgpu-smoke.service.tmp $(DESTDIR)$(SYSTEMDUSERDIR)/wslgpu-smoke.service
	$(INSTALL) -m 644 deploy/systemd/wslgpu-smoke.timer $(DESTDIR)$(SYSTEMDUSERDIR)/wslgpu-smoke.timer

install: $(BUILD)/wslgpu
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 $(BUILD)/wslgpu $(DESTDIR)$(BINDIR)/wslgpu
	$(INSTALL) -m 644 $(MANPAGES:%=doc/%) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 completions/wslgpu.bash $(DESTDIR)$(BASHCOMPDIR)/wslgpu
	$(INSTALL) -m 644 completions/_wslgpu $(DESTDIR)$(ZSHCOMPDIR)/_wslgpu

uninstall:
	rm -f $(INSTALLED) $(INSTALLED_UNITS)

# make static: build-static/wslgpu, linked statically, for dropping onto a
# machine whose libraries are broken. Without libcurl (smoke --push says it
# is not available; its static form needs OpenSSL, Kerberos, LDAP...).
# libarchive's static library references libxml2, zstd, lz4 and acl for
# formats wslgpu never writes: --gc-sections drops that code. A static
# binary loads no vendor library (their thread-local code crashes a static
# program; see src/core/buildinfo.h): the cuda layer and NVML are skipped
# with that reason, and --version says so. STATIC_LDFLAGS=-static where
# -static-pie is not supported.
STATIC_LDFLAGS ?= -static-pie
ifeq ($(STATIC),1)
CPPFLAGS += -DWSLGPU_STATIC -DWSLGPU_NO_CURL
LDFLAGS := $(filter-out -pie,$(LDFLAGS)) $(STATIC_LDFLAGS) -Wl,--gc-sections
LDLIBS = -linih -lsqlite3 -larchive -lnettle -llzma -lbz2 -lz -ldl -lm -lpthread
endif
.PHONY: static
static:
	$(MAKE) STATIC=1 BUILD=build-static build-static/wslgpu
# ---- end of the install block ----

clean:
	rm -rf build build-asan build-fuzz build-* wslgpu

-include $(patsubst %.o,%.d,$(LIB_OBJ) $(BUILD)/src/cli/main.o $(KBGEN_OBJ) $(UNIT_OBJ))
