# SPDX-License-Identifier: GPL-2.0-or-later
# chargesim - top-level build.
#
#   make            build build/chargesim and build/libchargesim.a
#   make demo       install missing Debian packages (as root), build, run scenarios/demo.json
#   make test       install missing packages, build, run the CUnit suites
#   make asan       the same tests built with AddressSanitizer + UBSan (in build/asan/),
#                   then the bad-input corpus (tests/bad-inputs/) with leak detection on
#   make bench      the benchmarks in bench/: this build against BASELINE=REV (default
#                   b52e5c8) on the four workloads of the speed rule (docs/scaling.md)
#   make install    PREFIX=/usr/local: binary, plugin headers, chargesim.pc, the
#                   scenario library in PREFIX/share/chargesim/scenarios (where `check`
#                   and `list scenarios` look without a path; DESTDIR stages it), the
#                   scenario JSON Schema beside it (written by the binary from its
#                   tables), the populations of `chargesim score` in
#                   PREFIX/share/chargesim/populations, the manual pages chargesim(1)
#                   and chargesim-scenario(5) (docs/man/) and the bash completion
#                   (cli/completion.bash)
#   make KERNEL_SRC=DIR   take the real Linux drivers from the kernel tree DIR instead
#                   of Debian's linux-source-6.12 tarball (docs/linux-drivers.md)
#   make KERNEL_EDITED=DIR   also build the driver files DIR holds, as linux/<file>@edited
#   make driver-compare KERNEL_EDITED=DIR SCENARIO=FILE   build them and compare each
#                   driver with its edited build on SCENARIO (docs/linux-drivers.md)
#
# Sources are found by wildcard: a new file under sim/, models/<name>/, stack/, traces/,
# output/, run/, run/linux/, plots/ or report/ joins the library, one under cli/ the
# binary, one under tests/ the tests.
# WERROR=1 turns warnings into errors (CI sets it).

PREFIX    ?= /usr/local
# cli/util.c finds it from the binary's own place (BINDIR/../share/chargesim/scenarios)
SCENARIO_LIBRARY = $(PREFIX)/share/chargesim/scenarios
BUILD     ?= build
WERROR    ?= 0
VERSION   := 0.1.0

PKGS      := glib-2.0 gmodule-2.0 libcjson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CUNIT_CFLAGS := $(shell pkg-config --cflags cunit 2>/dev/null)
CUNIT_LIBS   := $(shell pkg-config --libs cunit 2>/dev/null)

WARN      := -Wall -Wextra -Wshadow -Wstrict-prototypes
ifeq ($(WERROR),1)
WARN      += -Werror
endif
OPT       ?= -O2
CFLAGS    ?= $(OPT) -g
SAN       ?=
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(SAN) $(WARN) -I. -I$(BUILD)/gen -Istack/include \
             -DCHARGESIM_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -MMD -MP
LDLIBS    = $(PKG_LIBS) -lcsv -lm
# The chargesim binary links GLib (with GModule and PCRE2, which GLib uses) and libcsv
# statically: a full charge as a whole process (`chargesim run` of
# scenarios/sweeps/full-charge.json) takes 1.12x fewer instructions than with the shared
# libraries, which the dynamic linker must load and relocate, and 1.19-1.21x less CPU
# time (docs/scaling.md). GLib and GModule go in whole and are exported with the rest,
# so a policy plugin still finds every GLib function in the binary, as it found them in
# the shared library before. STATIC_DEPS=0 links them as shared libraries.
STATIC_DEPS ?= 1
ifeq ($(STATIC_DEPS),1)
BIN_LDLIBS = -Wl,--export-dynamic -Wl,-Bstatic \
             -Wl,--whole-archive -lglib-2.0 -lgmodule-2.0 -Wl,--no-whole-archive -lpcre2-8 -lcsv \
             -Wl,-Bdynamic $(shell pkg-config --libs libcjson 2>/dev/null) -pthread -lm
else
BIN_LDLIBS = $(LDLIBS)
endif
LDFLAGS   += $(SAN)

LIB_SRC   := $(sort $(wildcard sim/*.c) $(wildcard models/*.c) $(wildcard models/*/*.c) \
               $(wildcard stack/*/*.c) $(wildcard traces/*.c) $(wildcard output/*.c) \
               $(wildcard run/*.c) \
               $(wildcard run/linux/*.c) $(wildcard plots/*.c) $(wildcard report/*.c))
CLI_SRC   := $(sort $(wildcard cli/*.c))
TEST_SRC  := $(sort $(wildcard tests/*.c))
BENCH_SRC := $(sort $(wildcard bench/*.c))

# ---- real Linux drivers (docs/linux-drivers.md) ----
# The driver files are compiled unmodified from a kernel tree: by default Debian's
# linux-source-6.12 tarball, or the tree given as KERNEL_SRC=DIR. Only the files named
# here are extracted (or copied), into $(BUILD)/kernel/ under their paths in the tree;
# nothing from the kernel is kept in this repository. Without a kernel source the
# driver list is empty and everything else builds; the tests say what they skipped.
KERNEL_TARBALL ?= /usr/src/linux-source-6.12.tar.xz
KERNEL_TOP     := linux-source-6.12
KERNEL_SRC     ?=
# per build directory, so that a build without the kernel tree (BUILD=DIR
# KERNEL_TARBALL=/nowhere, tests/test_no_kernel.sh) leaves the main build's files alone
KDIR           := $(BUILD)/kernel
# drivers/power/supply/<name>.c, each becoming the policy "linux/<name>", each with its
# machine run/linux/<name>.c (listed in run/linux/machines.c)
KDRIVERS_ALL   := twl4030_charger bq25890_charger gpio-charger axp288_charger charger-manager
# headers of the tree a driver file includes that need nothing the layer lacks (its own
# struct definitions, small helpers), taken with the drivers; the layer's headers
# (stack/include) come first on the include path
KHEADERS       := include/linux/power/charger-manager.h include/linux/power/bq25890_charger.h \
                  include/linux/power/gpio-charger.h include/linux/devm-helpers.h
# kernel files a machine loads beside its driver (drivers/extcon/extcon-axp288.c: the AXP288
# machine's extcon, run/linux/axp288_charger.c); they are no policies of their own
KMACHINE_FILES := drivers/extcon/extcon-axp288.c
# The kernel's own core code the layer runs in place of ports (docs/stack.md): extcon
# (extcon.c with its devres part and its private header) and the USB PHY layer with the
# merged USB charger framework (phy.c). Without a kernel tree stack/kernel/kcore_absent.c
# stands in for them.
KCORE_ALL      := drivers/extcon/extcon.c drivers/extcon/devres.c drivers/usb/phy/phy.c
KCORE_HEADERS  := drivers/extcon/extcon.h
KFILES         := $(KDRIVERS_ALL:%=drivers/power/supply/%.c) $(KHEADERS) $(KMACHINE_FILES) \
                  $(KCORE_ALL) $(KCORE_HEADERS)
ifneq ($(KERNEL_SRC),)
KORIGIN        := $(abspath $(KERNEL_SRC))
KDRIVERS       := $(KDRIVERS_ALL)
else ifneq ($(wildcard $(KERNEL_TARBALL)),)
KORIGIN        := $(abspath $(KERNEL_TARBALL))
KDRIVERS       := $(KDRIVERS_ALL)
else
KORIGIN        := none
KDRIVERS       :=
endif
KDRIVER_SRC    := $(KDRIVERS:%=$(KDIR)/drivers/power/supply/%.c) $(if $(KDRIVERS),$(KMACHINE_FILES:%=$(KDIR)/%))
KDRIVER_OBJ    := $(KDRIVER_SRC:$(KDIR)/%.c=$(BUILD)/obj/kernel/%.o)
KMACHINE_MODS  := $(if $(KDRIVERS),$(subst -,_,$(basename $(notdir $(KMACHINE_FILES)))))
KCORE          := $(if $(KDRIVERS),$(KCORE_ALL))
KCORE_SRC      := $(KCORE:%=$(KDIR)/%)
KCORE_OBJ      := $(KCORE:%.c=$(BUILD)/obj/kernel/%.o)
LIB_SRC        := $(filter-out $(if $(KCORE),stack/kernel/kcore_absent.c),$(LIB_SRC))
KREGISTRY_SRC  := $(BUILD)/gen/cs_linux_modules.c
KREGISTRY_OBJ  := $(BUILD)/obj/gen/cs_linux_modules.o
# Kernel code is built with the kernel's own warning set (it is not ours to change);
# the macros Kbuild would define come from the command line and one forced include.
KWARN     := -Wall -Wno-sign-compare -Wno-pointer-sign -Wno-unused-const-variable \
             -Wno-unused-but-set-variable -Wno-missing-field-initializers
ifeq ($(WERROR),1)
KWARN     += -Werror
endif
# The code-generation flags of the kernel's top-level Makefile (6.12) that decide what
# x86-64 C code means: plain char is unsigned, a pointer may alias any type, signed
# overflow wraps and pointer arithmetic may wrap, a null check after a dereference
# stays, no store the source does not make, no common symbols, wchar_t is 16 bits, and
# automatic variables start zeroed (CONFIG_INIT_STACK_ALL_ZERO, the default choice of
# security/Kconfig.hardening with a compiler that has -ftrivial-auto-var-init=zero).
# Flags about the kernel's own memory model (-mcmodel=kernel, -mno-red-zone, -fno-PIE)
# do not fit a user-space process and are left out.
# As the kernel's cc-option does, a flag the compiler lacks is left out (clang has no
# -fno-allow-store-data-races; clang before 16 wants its enabler for zero-init).
kcc-option = $(shell $(CC) -Werror $(1) -c -x c /dev/null -o /dev/null 2>/dev/null && echo "$(1)")
KCODEGEN  := -funsigned-char -fno-strict-aliasing -fno-strict-overflow \
             -fno-delete-null-pointer-checks -fno-common -fshort-wchar \
             $(call kcc-option,-fno-allow-store-data-races) \
             $(or $(call kcc-option,-ftrivial-auto-var-init=zero),$(call kcc-option,\
               -ftrivial-auto-var-init=zero -enable-trivial-auto-var-init-zero-knowing-it-will-be-removed-from-clang))
KCFLAGS    = -std=gnu11 $(CFLAGS) $(SAN) $(KCODEGEN) $(KWARN) -I. -Istack/include \
             -I$(KDIR)/include -include stack/include/chargesim/kconfig.h $(PKG_CFLAGS) -MMD -MP


LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(KDRIVER_OBJ) $(KCORE_OBJ) $(KREGISTRY_OBJ)
# The gnuplot templates (plots/templates/*.gp) join the library as C strings, made by
# plots/templates/gp2c.sh, so that the binary needs no template file at run time.
TPL_SRC   := $(sort $(wildcard plots/templates/*.gp))
TPL_C     := $(BUILD)/gen/plots/templates.c
TPL_H     := $(BUILD)/gen/plots/templates.h
LIB_OBJ   += $(BUILD)/obj/gen/plots/templates.o
# The population files of `chargesim score` (populations/*.json) join the library as C
# strings too (scripts/json2c.sh): the built-in "default", "hard" and "field".
POP_SRC   := $(sort $(wildcard populations/*.json))
POP_C     := $(BUILD)/gen/run/populations.c
LIB_OBJ   += $(BUILD)/obj/gen/run/populations.o
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
CLI_LIB_OBJ := $(filter-out $(BUILD)/obj/cli/main.o,$(CLI_OBJ))

LIB       := $(BUILD)/libchargesim.a
BIN       := $(BUILD)/chargesim
TEST_BIN  := $(BUILD)/chargesim-tests
BENCH_BINS := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

# The simulator headers the kernel-style ones include (a plugin sees only these).
PLUGIN_SIM_HEADERS := sim/param.h sim/units.h sim/time.h sim/queue.h sim/sim.h

.PHONY: all demo test check-deps asan valgrind coverage bench install clean
all: $(BIN) $(LIB)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(TPL_C): $(TPL_SRC) plots/templates/gp2c.sh
	@mkdir -p $(dir $@)
	plots/templates/gp2c.sh $@ $(TPL_SRC)
# gp2c.sh writes the header that declares the templates beside them
$(TPL_H): $(TPL_C) ;
$(filter $(BUILD)/obj/plots/% $(BUILD)/obj/gen/plots/%,$(LIB_OBJ)): $(TPL_H)

$(POP_C): $(POP_SRC) scripts/json2c.sh
	@mkdir -p $(dir $@)
	scripts/json2c.sh $@ $(POP_SRC)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CUNIT_CFLAGS) -DCS_KDIR='"$(KDIR)"' -c $< -o $@

# Which kernel source the files come from, and which files (.kfiles); rewritten only
# when they change, so that switching between the tarball and KERNEL_SRC, or a new
# header in KHEADERS, extracts again.
$(KDIR)/.origin: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(KORIGIN) $(KDRIVERS)" ] || echo "$(KORIGIN) $(KDRIVERS)" > $@
$(KDIR)/.kfiles: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(KFILES)" ] || echo "$(KFILES)" > $@

# Staleness goes by content, not by time stamps: the tarball's files are extracted once
# into $(BUILD)/kernel-stock/ (one pass over it takes ~13 s), with their sha256 in
# .sha256 there; at every make, scripts/kernel-sync.sh copies the files of the origin
# (that stock tree, or KERNEL_SRC) into $(KDIR) only where their bytes differ, so a
# copy's time stamp moves exactly when its content changed. A file restored with
# `cp -p` or `tar -x` (an older time stamp, other bytes) is copied and recompiled, a
# file only touched is not. $(KDIR)/.sha256 lists the compiled copies' hashes.
KSTOCK         := $(BUILD)/kernel-stock
KSYNC_FROM     := $(if $(KERNEL_SRC),$(KERNEL_SRC),$(KSTOCK))
# which tarball (or none) the stock list is of, rewritten only when that changes
$(KSTOCK)/.tarball: FORCE
	@mkdir -p $(dir $@)
	@t="$(if $(wildcard $(KERNEL_TARBALL)),$(abspath $(KERNEL_TARBALL)),none)"; \
	  [ "$$(cat $@ 2>/dev/null)" = "$$t" ] || echo "$$t" > $@
ifneq ($(wildcard $(KERNEL_TARBALL)),)
$(KSTOCK)/.sha256: $(KDIR)/.kfiles $(KSTOCK)/.tarball $(KERNEL_TARBALL)
	@echo "  EXTRACT $(words $(KFILES)) kernel files from $(KERNEL_TARBALL)"
	@find $(KSTOCK) -mindepth 1 -maxdepth 1 ! -name .tarball -exec rm -rf {} +
	@tar -xJf $(KERNEL_TARBALL) -C $(KSTOCK) --strip-components=1 $(KFILES:%=$(KERNEL_TOP)/%)
	@cd $(KSTOCK) && chmod a-w $(KFILES) && sha256sum $(KFILES) > .sha256.tmp && mv .sha256.tmp .sha256
else
# no tarball to compare with: every file is "not from the tarball"
$(KSTOCK)/.sha256: $(KSTOCK)/.tarball
	@: > $@
endif
$(KDIR)/.extracted: $(KDIR)/.origin $(KDIR)/.kfiles $(KSTOCK)/.sha256 scripts/kernel-sync.sh FORCE
	@scripts/kernel-sync.sh $(KSYNC_FROM) $(KDIR) $(KFILES)
# (the sync touches .extracted when it copied a file, so that make looks at the copies'
# time stamps again after it)
ifneq ($(KDRIVERS),)
$(KFILES:%=$(KDIR)/%): $(KDIR)/.extracted
	@test -f $@
endif

# The core files keep their global state (lists, ids, locks) in the run, not the
# process (chargesim/kcore.h, forced in): every run is a kernel of its own, also when
# `check -j` runs several at once in threads.
$(KCORE_OBJ): $(BUILD)/obj/kernel/%.o: $(KDIR)/%.c stack/include/chargesim/kconfig.h \
		stack/include/chargesim/kcore.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -include stack/include/chargesim/kcore.h \
	  -DKBUILD_MODNAME='"$(if $(findstring extcon,$*),extcon_core,phy)"' \
	  -DKBUILD_BASENAME='"$(notdir $*)"' -DCS_KFILE='"$(notdir $*)"' \
	  -DCS_KMODSYM=$(if $(findstring extcon,$*),extcon_core,usb_phy) -c $< -o $@

# A driver's static variables (its .data, .data.rel, .data.rel.local and .bss) are
# renamed into sections of its own, cs_kdata_MOD and cs_kbss_MOD, whose bounds the
# linker gives as __start_/__stop_ symbols: stack/linux/policy.c puts them back to their
# first state before each run of the driver, as a fresh process would have them.
KSTATE_SECTIONS = $(foreach s,.data .data.rel .data.rel.local,--rename-section $(s)=cs_kdata_$(1)) \
                  --rename-section .bss=cs_kbss_$(1)
$(BUILD)/obj/kernel/%.o: $(KDIR)/%.c stack/include/chargesim/kconfig.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -DKBUILD_MODNAME='"$(subst -,_,$(notdir $*))"' \
	  -DKBUILD_BASENAME='"$(subst -,_,$(notdir $*))"' -DCS_KFILE='"$(notdir $*)"' \
	  -DCS_KMODSYM=$(subst -,_,$(notdir $*)) -MT $@ -c $< -o $@.tmp
	objcopy $(call KSTATE_SECTIONS,$(subst -,_,$(notdir $*))) $@.tmp $@ && rm -f $@.tmp

# A second build of driver files, from KERNEL_EDITED=DIR: each driver file of the list
# that DIR holds (DIR/drivers/power/supply/<file>.c) is compiled again, with the build's
# headers, as the policy "linux/<file>@edited" beside the build's own "linux/<file>",
# so that one `chargesim compare` runs both (docs/linux-drivers.md section 2; make
# driver-compare below). Its symbols and static sections get the suffix __edited and
# its module records the variant "edited" (CS_KVARIANT), so that the two stay apart.
KERNEL_EDITED  ?=
KEDIR          := $(BUILD)/kernel-edited
ifneq ($(and $(KERNEL_EDITED),$(KDRIVERS)),)
KEDITED        := $(patsubst $(KERNEL_EDITED)/drivers/power/supply/%.c,%,\
                    $(wildcard $(KDRIVERS:%=$(KERNEL_EDITED)/drivers/power/supply/%.c)))
endif
ifneq ($(KERNEL_EDITED),)
ifeq ($(KEDITED),)
$(warning KERNEL_EDITED=$(KERNEL_EDITED) holds no driver file of this build ($(if $(KDRIVERS),DIR/drivers/power/supply/<file>.c for a file of KDRIVERS_ALL,none: no kernel source)): no linux/<file>@edited is built)
endif
endif
KEDITED_OBJ    := $(KEDITED:%=$(BUILD)/obj/kernel-edited/drivers/power/supply/%.o)
KMODSYMS       := $(subst -,_,$(KDRIVERS)) $(addsuffix __edited,$(subst -,_,$(KEDITED)))
LIB_OBJ        += $(KEDITED_OBJ)
ifneq ($(KEDITED),)
$(KEDIR)/.extracted: $(KDIR)/.extracted scripts/kernel-sync.sh FORCE
	@scripts/kernel-sync.sh $(KERNEL_EDITED) $(KEDIR) $(KEDITED:%=drivers/power/supply/%.c)
$(KEDIR)/.sha256 $(KEDITED:%=$(KEDIR)/drivers/power/supply/%.c): $(KEDIR)/.extracted
	@test -f $@
endif
$(BUILD)/obj/kernel-edited/%.o: $(KEDIR)/%.c stack/include/chargesim/kconfig.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -DKBUILD_MODNAME='"$(subst -,_,$(notdir $*))"' \
	  -DKBUILD_BASENAME='"$(subst -,_,$(notdir $*))"' -DCS_KFILE='"$(notdir $*)"' \
	  -DCS_KVARIANT='"edited"' -DCS_KMODSYM=$(subst -,_,$(notdir $*))__edited -MT $@ -c $< -o $@.tmp
	objcopy $(call KSTATE_SECTIONS,$(subst -,_,$(notdir $*))__edited) $@.tmp $@ && rm -f $@.tmp

# The list of compiled drivers (per build directory), rewritten only when it changes.
$(BUILD)/gen/.kdrivers: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(KMODSYMS)." ] || echo "$(KMODSYMS)." > $@

# With each driver, the identity of the kernel files it was compiled from: path, sha256
# of the compiled copy, stock / edited / not-from-tarball (scripts/kfiles2c.sh); then
# those of the build's other kernel .c files (KMACHINE_FILES: what machines load beside
# their driver), which every driver's list names too.
KSHARED   := $(filter-out $(KDRIVERS_ALL:%=drivers/power/supply/%.c),$(filter %.c,$(KFILES)))
ifneq ($(KDRIVERS),)
$(KDIR)/.sha256: $(KDIR)/.extracted
	@test -f $@
KREGISTRY_DEPS := $(KDIR)/.sha256 $(KSTOCK)/.sha256 $(KDRIVER_OBJ) $(KCORE_OBJ) $(KEDITED_OBJ) \
                  $(if $(KEDITED),$(KEDIR)/.sha256)
endif
$(KREGISTRY_SRC): $(BUILD)/gen/.kdrivers Makefile scripts/kfiles2c.sh $(KREGISTRY_DEPS)
	@mkdir -p $(dir $@)
	@{ echo '// SPDX-License-Identifier: GPL-2.0-or-later'; \
	  echo '/* Generated by the Makefile: the real Linux drivers compiled into this build. */'; \
	  echo '#include <chargesim/linux_module.h>'; \
	  for m in $(KMODSYMS); do echo "extern const struct cs_linux_module cs_linux_module_$$m;"; \
	    for b in start stop; do echo "extern char __$${b}_cs_kdata_$$m[] __attribute__((weak)), __$${b}_cs_kbss_$$m[] __attribute__((weak));"; done; done; \
	  echo 'const struct cs_linux_module *const cs_linux_modules[] = {'; \
	  for m in $(KMODSYMS); do echo "	&cs_linux_module_$$m,"; done; \
	  echo '	NULL,'; echo '};'; \
	  echo 'const struct cs_linux_statics cs_linux_statics[] = {'; \
	  for m in $(KMODSYMS); do echo "	{ __start_cs_kdata_$$m, __stop_cs_kdata_$$m, __start_cs_kbss_$$m, __stop_cs_kbss_$$m },"; done; \
	  echo '	{ NULL, NULL, NULL, NULL },'; echo '};'; \
	  for m in $(KMACHINE_MODS); do echo "extern const struct cs_linux_module cs_linux_module_$$m;"; done; \
	  echo 'const struct cs_linux_module *const cs_linux_machine_modules[] = {'; \
	  for m in $(KMACHINE_MODS); do echo "	&cs_linux_module_$$m,"; done; echo '	NULL,'; echo '};'; \
	  scripts/kfiles2c.sh $(KDIR) $(KEDIR) $(KSTOCK)/.sha256 $(BUILD)/obj "$(KSHARED)" \
	    $(KDRIVERS) $(KEDITED:%=%@edited); } > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@

$(KREGISTRY_OBJ): $(KREGISTRY_SRC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

.PHONY: FORCE
FORCE:

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

# The whole library goes into the binary so that policy plugins find every kernel-style
# function they may call (exported with --export-dynamic from gmodule's flags).
BIN_OBJ   := $(CLI_OBJ) $(LIB_OBJ)
$(BIN): $(BIN_OBJ)
	$(CC) $(LDFLAGS) -o $@ $(BIN_OBJ) $(BIN_LDLIBS)

$(TEST_BIN): $(TEST_OBJ) $(CLI_LIB_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) $(CLI_LIB_OBJ) $(LIB) $(LDLIBS) $(CUNIT_LIBS)

# Benchmarks share the tests' helpers for scratch directories (tests/testutil.h).
$(BUILD)/bench/%: bench/%.c $(CLI_LIB_OBJ) $(BUILD)/obj/tests/testutil.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(CLI_LIB_OBJ) $(BUILD)/obj/tests/testutil.o $(LIB) $(LDLIBS)

# The set-up targets check the Debian packages first, then build in a sub-make so that
# pkg-config is asked again once the packages are there.
check-deps:
	@scripts/install-deps.sh

DEMO_OUT ?= out/demo
demo: check-deps
	@$(MAKE) --no-print-directory $(BIN)
	@$(BIN) run scenarios/demo.json -o $(DEMO_OUT) --plot

# make driver-compare KERNEL_EDITED=DIR SCENARIO=FILE [COMPARE_OUT=DIR]: the driver
# developer's loop in one command (docs/linux-drivers.md section 2). Builds with the
# driver files DIR holds as linux/<file>@edited beside the build's own (only the files
# whose bytes changed are compiled again), then runs SCENARIO under each driver and its
# edited build in one `chargesim compare` (output in COMPARE_OUT, or compare's default).
.PHONY: driver-compare
driver-compare:
	@if [ -z "$(KERNEL_EDITED)" ] || [ -z "$(SCENARIO)" ]; then \
	  echo "usage: make driver-compare KERNEL_EDITED=DIR SCENARIO=FILE [COMPARE_OUT=DIR]" >&2; exit 2; fi
	@if [ -z "$(KEDITED)" ]; then \
	  echo "driver-compare: $(KERNEL_EDITED) holds no driver file of this build ($(if $(KDRIVERS),$(KDRIVERS:%=drivers/power/supply/%.c),none: no kernel source))" >&2; exit 2; fi
	@$(MAKE) --no-print-directory $(BIN)
	$(BIN) compare $(SCENARIO) $(foreach d,$(KEDITED),--policy linux/$(d) --policy linux/$(d)@edited) \
	  $(if $(COMPARE_OUT),-o $(COMPARE_OUT))

# make gallery: build/gallery/*.png and build/gallery/README.md from the bug zoo
# (scenarios/bugzoo/), one overlaid failure-and-fix picture per pair (docs/plots.md);
# it writes no tracked file. make gallery-update rewrites the tracked gallery,
# plots/gallery/: its README.md and the pictures GALLERY_TRACKED names (the ones the
# repository keeps; tests/test_doc_figures.sh checks the README's links and figures).
GALLERY_TRACKED := twl4030-full-battery heatmap-twl4030-grid run-twl4030-full-battery \
                   run-twl4030-full-battery-safe-ramp
.PHONY: gallery gallery-update
gallery: check-deps
	@$(MAKE) --no-print-directory $(BIN)
	@GALLERY=$(BUILD)/gallery TRACKED= plots/gallery/generate.sh $(BIN)
gallery-update: check-deps
	@$(MAKE) --no-print-directory $(BIN)
	@GALLERY=plots/gallery TRACKED="$(GALLERY_TRACKED)" plots/gallery/generate.sh $(BIN)

test: check-deps
	@$(MAKE) --no-print-directory $(TEST_BIN) $(BIN)
	@$(TEST_BIN)

# cases of the bad-input corpus run at once under ASan (each uses ~100 MB and a core)
ASAN_CORPUS_JOBS ?= 8
asan: check-deps
	@$(MAKE) --no-print-directory BUILD=build/asan OPT=-O1 \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  build/asan/chargesim-tests build/asan/chargesim
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/asan/chargesim-tests
	@echo "== the bad-input corpus under ASan and LeakSanitizer (tests/test_bad_inputs.sh)"
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 BAD_INPUTS_JOBS=$(ASAN_CORPUS_JOBS) \
	  tests/test_bad_inputs.sh build/asan/chargesim >build/asan/bad-inputs.log 2>&1; \
	  s=$$?; grep -v '^ok ' build/asan/bad-inputs.log; exit $$s

# memcheck on the fast unit suites and a sample of scenarios: 0 errors, no definite leaks.
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite
VALGRIND_SUITES := queue units scenario outputs physics stack
VALGRIND_SCENARIOS := scenarios/demo.json scenarios/bugzoo/twl4030-full-battery.json \
	scenarios/bugzoo/dead-battery-boot-loop.json scenarios/ports/pd-9v.json
valgrind: check-deps
	@command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind"; exit 2; }
	@$(MAKE) --no-print-directory OPT=-O1 $(TEST_BIN) $(BIN)
	$(VALGRIND) $(TEST_BIN) $(VALGRIND_SUITES)
	@d=$$(mktemp -d) && for s in $(VALGRIND_SCENARIOS); do \
	  $(VALGRIND) $(BIN) run $$s -o $$d/out -q || { rm -rf $$d; exit 1; }; done; rm -rf $$d; \
	  echo "valgrind: $(words $(VALGRIND_SCENARIOS)) scenarios clean"

# Line and branch coverage of the tests and the scenario library (gcov; gcovr when
# installed, else a per-directory summary from gcov itself).
coverage: check-deps
	@$(MAKE) --no-print-directory BUILD=build/cov OPT=-O0 SAN="--coverage" build/cov/chargesim-tests build/cov/chargesim
	@find build/cov -name '*.gcda' -delete
	@build/cov/chargesim-tests >/dev/null || true
	@build/cov/chargesim check scenarios -o build/cov/out -q >/dev/null || true
	@for t in tests/test_*.sh; do $$t build/cov/chargesim >/dev/null 2>&1 || true; done
	@scripts/coverage-summary.sh build/cov | grep -v '^tests'

# make bench [BASELINE=REV|PATH] [BENCH_SCALE=N]: the event-queue benchmark, the memory of
# a long run, the real drivers against their ports, then the four workloads of the speed
# rule (CI's check of the library, a 1,000-variant sweep, the regret benchmark, a full
# charge as a process), each with this build and with BASELINE's as whole processes,
# alternately, in one table (bench/bench_builds.c; BENCH_SCALE multiplies its rounds).
# BASELINE, b52e5c8, is the tree before the lean-tree work (build, benchmarks, layers); a
# revision is exported into $(BUILD)/baseline-HASH/ and built there once, with its own
# bench_regret (scripts/baseline-build.sh); a PATH is a chargesim built elsewhere, whose
# directory may hold bench/bench_regret. Both builds run the scenario library as it stood
# at BENCH_INPUTS (default: BASELINE's revision, b52e5c8 for a PATH), which the baseline
# understands.
BASELINE    ?= b52e5c8
BENCH_SCALE ?= 1
BENCH_INPUTS ?= $(if $(wildcard $(BASELINE)),b52e5c8,$(BASELINE))
bench: check-deps
	@$(MAKE) --no-print-directory $(BENCH_BINS) $(BIN)
	@export MAKE='$(MAKE)'; \
	base=$$(scripts/baseline-build.sh '$(BASELINE)' $(BUILD) build/bench/bench_regret) || exit 1; \
	for b in queue run linux; do echo "== bench_$$b"; $(BUILD)/bench/bench_$$b || exit 1; done; \
	echo "== bench_builds: this build against $(BASELINE)"; \
	$(BUILD)/bench/bench_builds "$$(dirname "$$base")" $(BENCH_INPUTS) $(BENCH_SCALE)

# make same-outputs [BASE=REV|PATH]: every library scenario run by this build and by
# BASE's (default HEAD, the last commit; built as for make bench), and the demo again
# at --trace-dt 60s with safe-ramp, their outputs compared byte for byte
# (scripts/same-outputs.sh): for a change, such as a speed-up, that must not change a
# result. Fails when one differs.
BASE ?= HEAD
.PHONY: same-outputs
same-outputs: check-deps $(BIN)
	@export MAKE='$(MAKE)'; old=$$(scripts/baseline-build.sh '$(BASE)' $(BUILD)) || exit $$?; \
	scripts/same-outputs.sh "$$old" $(BIN)

# The benchmarks built but not run (CI: they keep compiling as the library changes).
.PHONY: bench-build
bench-build: check-deps
	@$(MAKE) --no-print-directory $(BENCH_BINS)

# make fuzz [FUZZ_SECONDS=N]: the libFuzzer harnesses fuzz/fuzz_*.c (see fuzz/README.md),
# built with clang, ASan and UBSan against the library and cli/ compiled the same way in
# build/fuzz/ (the gcc build in build/ is left alone). Each harness runs FUZZ_SECONDS on
# build/fuzz/corpus-<harness>/, seeded from fuzz/corpus/<harness>/, with
# fuzz/chargesim.dict; crash inputs go to build/fuzz/artifacts-<harness>/, the full
# output to build/fuzz/<harness>.log. Fails when any harness finds a crash, a leak or a
# timeout. FUZZ_ONLY="units csv" runs a subset; FUZZ_FLAGS adds libFuzzer options.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_NAMES   := $(sort $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c)))
FUZZ_ONLY    ?= $(FUZZ_NAMES)
FUZZ_FLAGS   ?=
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined

.PHONY: fuzz fuzz-build
fuzz: check-deps
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=$(FUZZ_CC) OPT=-O1 SAN="$(FUZZ_SAN)" \
	  fuzz-build
	@fail=0; for h in $(FUZZ_ONLY); do \
	  bin=build/fuzz/fuzz_$$h; work=build/fuzz/corpus-$$h; art=build/fuzz/artifacts-$$h; \
	  log=build/fuzz/$$h.log; \
	  case $$h in units) len=256;; csv) len=8192;; *) len=16384;; esac; \
	  mkdir -p $$work $$art; \
	  if [ -d fuzz/corpus/$$h ]; then cp -R fuzz/corpus/$$h/. $$work/; fi; \
	  echo "== fuzz_$$h: $(FUZZ_SECONDS) s, corpus $$work ($$(ls $$work | wc -l) inputs)"; \
	  if G_SLICE=always-malloc ASAN_OPTIONS=detect_leaks=1 \
	     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	     $$bin -max_total_time=$(FUZZ_SECONDS) -dict=fuzz/chargesim.dict -max_len=$$len \
	       -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$$art/ \
	       $(FUZZ_FLAGS) $$work >$$log 2>&1; then \
	    grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)' $$log | tail -1; \
	    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' $$log; \
	    grep -E '^Done ' $$log; \
	  else \
	    fail=1; echo "   FAILED: fuzz_$$h (see $$log)"; \
	    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz contract|.*runtime error)|Test unit written|^artifact_prefix' $$log | head -8; \
	  fi; \
	done; exit $$fail

fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(CLI_LIB_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) -DFUZZ_SRCDIR='"$(CURDIR)"' -fsanitize=fuzzer -o $@ $< \
	  $(CLI_LIB_OBJ) $(LIB) $(LDLIBS)

install: $(BIN) $(LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/include/chargesim
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/chargesim
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libchargesim.a
	cp -R stack/include/. $(DESTDIR)$(PREFIX)/include/chargesim/
	install -d $(DESTDIR)$(PREFIX)/include/chargesim/sim
	install -m 644 $(PLUGIN_SIM_HEADERS) $(DESTDIR)$(PREFIX)/include/chargesim/sim/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  chargesim.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/chargesim.pc
	install -d $(DESTDIR)$(SCENARIO_LIBRARY)
	rm -rf $(DESTDIR)$(SCENARIO_LIBRARY)/*
	cp -R scenarios/. $(DESTDIR)$(SCENARIO_LIBRARY)/
	chmod -R u=rwX,go=rX $(DESTDIR)$(SCENARIO_LIBRARY)
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man5 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 docs/man/chargesim.1 $(DESTDIR)$(PREFIX)/share/man/man1/chargesim.1
	install -m 644 docs/man/chargesim-scenario.5 $(DESTDIR)$(PREFIX)/share/man/man5/chargesim-scenario.5
	install -m 644 cli/completion.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/chargesim
	$(BIN) list schema > $(DESTDIR)$(PREFIX)/share/chargesim/scenario.schema.json.tmp
	mv $(DESTDIR)$(PREFIX)/share/chargesim/scenario.schema.json.tmp \
	  $(DESTDIR)$(PREFIX)/share/chargesim/scenario.schema.json
	chmod 644 $(DESTDIR)$(PREFIX)/share/chargesim/scenario.schema.json
	install -d $(DESTDIR)$(PREFIX)/share/chargesim/populations
	install -m 644 $(POP_SRC) $(DESTDIR)$(PREFIX)/share/chargesim/populations/

clean:
	rm -rf build out

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
