# wslgpu — plain Makefile. Targets:
#   make                build ./wslgpu (and build/)
#   make check          build and run every test (unit, end-to-end, kb)
#   make fakes          build the fake vendor libraries the fixtures use (tools/fixture)
#   make check SANITIZE=1   the same under AddressSanitizer + UBSan (what CI runs)
#   make asan           build the sanitizer binary only (build-asan/)
#   make install PREFIX=/usr/local DESTDIR=   (binary, man page, completions)
#   make uninstall      remove exactly what install installed
#   make static         build-static/wslgpu, linked statically (no libcurl)
#   make bench          run the benchmarks in bench/
#   make fuzz           build the libFuzzer targets (clang)
#   make clean
#
# BUILD selects the output directory, so that several builds can coexist.

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

COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wformat=2 -Wno-format-nonliteral
HARDEN = -fstack-protector-strong -fPIE
CPPFLAGS += -D_GNU_SOURCE
CFLAGS ?= -g
CFLAGS += -std=c11 $(WARN) $(OPT) $(HARDEN) $(SAN)
LDFLAGS += -pie -Wl,-z,relro,-z,now $(SAN)
LDLIBS = -linih -lsqlite3 -lcurl -larchive -ldl -lm

LIB_SRC := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC)) $(BUILD)/gen/kb_data.o
KB_SRC := $(sort $(wildcard src/kb/*.kb))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
# Fake vendor libraries: tests/fakes/NAME.c becomes $(BUILD)/fakes/SONAME,
# where SONAME is on the source's "// soname: ..." line.
FAKE_SRC := $(wildcard tests/fakes/*.c)
fake_soname = $(shell sed -n 's,^// soname: *,,p' $(1))
FAKE_LIB := $(foreach f,$(FAKE_SRC),$(BUILD)/fakes/$(call fake_soname,$(f)))

.PHONY: all check asan install uninstall clean bench fuzz fakes
all: wslgpu

# ---- The embedded PTX kernels (src/gpu/kernels.cu; owner: the cuda layer) ----
# The checked-in src/gpu/kernels.ptx is embedded in the binary as the C string
# wslgpu_kernels_ptx (tools/ptx2c.awk), so `make` never needs nvcc.
# `make ptx` regenerates kernels.ptx from kernels.cu when nvcc is installed,
# pinned to PTX ISA 7.0 / sm_50 so that old drivers can JIT it (see the
# comment at the top of src/gpu/kernels.cu), and checks it with ptxas.
NVCC ?= nvcc
PTXAS ?= ptxas
LIB_OBJ += $(BUILD)/gen/kernels_ptx.o
$(BUILD)/gen/kernels_ptx.c: src/gpu/kernels.ptx tools/ptx2c.awk
	@mkdir -p $(dir $@)
	awk -f tools/ptx2c.awk src/gpu/kernels.ptx > $@.tmp && mv $@.tmp $@
$(BUILD)/gen/kernels_ptx.o: $(BUILD)/gen/kernels_ptx.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
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

# Only buildinfo.o (and main.o) carry the commit, so a new commit rebuilds two files.
$(BUILD)/src/cli/main.o $(BUILD)/src/core/buildinfo.o: CPPFLAGS += -DWSLGPU_COMMIT='"$(COMMIT)"'

$(BUILD)/wslgpu: $(BUILD)/src/cli/main.o $(BUILD)/libwslgpu.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libwslgpu.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c $(wildcard src/*/*.h) src/version.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -c -o $@ $<

$(BUILD)/gen/kb_data.c: $(KB_SRC) tools/kb2c.awk
	@mkdir -p $(dir $@)
	awk -f tools/kb2c.awk $(KB_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/kb_data.o: $(BUILD)/gen/kb_data.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Unit tests: one cmocka binary per tests/unit/test_*.c.
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libwslgpu.a tests/unit/testutil.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc $(LDFLAGS) -o $@ $< $(BUILD)/libwslgpu.a -lcmocka $(LDLIBS)

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

check: $(BUILD)/wslgpu $(UNIT_BIN) $(FAKE_LIB)
	BUILD=$(BUILD) sh tests/run-tests.sh

bench: $(BUILD)/wslgpu
	BUILD=$(BUILD) sh bench/run-benchmarks.sh

fuzz:
	$(MAKE) -f fuzz/Makefile BUILD=build-fuzz LDLIBS='$(LDLIBS)'

# ---- install, uninstall, static (owner: the fix/install task) ----
# make install PREFIX=/usr/local DESTDIR=/tmp/stage: the binary, the man page
# and the bash and zsh completions; make uninstall removes exactly those.
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
INSTALL ?= install
INSTALLED = $(DESTDIR)$(BINDIR)/wslgpu $(DESTDIR)$(MANDIR)/man1/wslgpu.1 \
	$(DESTDIR)$(BASHCOMPDIR)/wslgpu $(DESTDIR)$(ZSHCOMPDIR)/_wslgpu

install: $(BUILD)/wslgpu
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 $(BUILD)/wslgpu $(DESTDIR)$(BINDIR)/wslgpu
	$(INSTALL) -m 644 doc/wslgpu.1 $(DESTDIR)$(MANDIR)/man1/wslgpu.1
	$(INSTALL) -m 644 completions/wslgpu.bash $(DESTDIR)$(BASHCOMPDIR)/wslgpu
	$(INSTALL) -m 644 completions/_wslgpu $(DESTDIR)$(ZSHCOMPDIR)/_wslgpu

uninstall:
	rm -f $(INSTALLED)

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

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
