# SPDX-License-Identifier: GPL-2.0-or-later
# chargesim - top-level build.
#
#   make            build build/chargesim and build/libchargesim.a
#   make demo       install missing Debian packages (as root), build, run scenarios/demo.json
#   make test       install missing packages, build, run the CUnit suites
#   make asan       the same tests built with AddressSanitizer + UBSan (in build/asan/),
#                   then the bad-input corpus (tests/bad-inputs/) with leak detection on
#   make bench      build and run the benchmarks in bench/ (BASELINE=, SPEED_BASELINE=: against those revisions)
#   make link-order profile the library scenarios (valgrind) and write again the order in
#                   which the binary's objects are linked (scripts/link-order.sh)
#   make install    PREFIX=/usr/local: binary, plugin headers, chargesim.pc, and the
#                   scenario library in PREFIX/share/chargesim/scenarios (where `check`
#                   and `list scenarios` look without a path; DESTDIR stages it)
#   make KERNEL_SRC=DIR   take the real Linux drivers from the kernel tree DIR instead
#                   of Debian's linux-source-6.12 tarball (docs/linux-drivers.md)
#
# Sources are found by wildcard: a new file under sim/, models/<name>/, stack/, traces/,
# output/, run/, run/linux/ or plots/ joins the library, one under cli/ the binary, one under
# tests/ the tests.
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
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(SAN) $(WARN) -I. -Istack/include \
             -DCHARGESIM_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -MMD -MP
LDLIBS    = $(PKG_LIBS) -lcsv -lm
# The chargesim binary links GLib (with GModule and PCRE2, which GLib uses) and libcsv
# statically: loading and relocating those shared libraries was about a fifth of the
# time `chargesim --version` takes (bench/bench_output.c measures start-up). GLib and
# GModule go in whole and are exported with the rest, so a policy plugin still finds
# every GLib function in the binary, as it found them in the shared library before.
# STATIC_DEPS=0 links them as shared libraries again.
STATIC_DEPS ?= 1
ifeq ($(STATIC_DEPS),1)
# GLib's objects are taken out of its archive (into $(BUILD)/ar/) so that the link can
# order them (see $(BIN) below); $(GLIB_OBJECTS) lists all of them, so GLib still goes
# in whole.
GLIB_ARCHIVE := $(shell pkg-config --variable=libdir glib-2.0 2>/dev/null)/libglib-2.0.a
GLIB_OBJECTS := $(BUILD)/ar/libglib-2.0.a/objects
BIN_DEPS   = $(GLIB_OBJECTS)
BIN_ARCHIVE_OBJ = $$(cat $(GLIB_OBJECTS))
BIN_LDLIBS = -Wl,--export-dynamic -Wl,-Bstatic \
             -Wl,--whole-archive -lgmodule-2.0 -Wl,--no-whole-archive -lpcre2-8 -lcsv \
             -Wl,-Bdynamic $(shell pkg-config --libs libcjson 2>/dev/null) -pthread -lm
else
BIN_DEPS   =
BIN_ARCHIVE_OBJ =
BIN_LDLIBS = $(LDLIBS)
endif
LDFLAGS   += $(SAN)

LIB_SRC   := $(sort $(wildcard sim/*.c) $(wildcard models/*.c) $(wildcard models/*/*.c) \
               $(wildcard stack/*/*.c) $(wildcard traces/*.c) $(wildcard output/*.c) \
               $(wildcard run/*.c) \
               $(wildcard run/linux/*.c) $(wildcard plots/*.c))
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
KDIR           := build/kernel
# drivers/power/supply/<name>.c, each becoming the policy "linux/<name>", each with its
# machine run/linux/<name>.c (listed in run/linux/machines.c)
KDRIVERS_ALL   := twl4030_charger bq25890_charger gpio-charger axp288_charger charger-manager
# headers of the tree a driver file includes as its own (its struct definitions), taken
# with the drivers; the layer's headers (stack/include) come first on the include path
KHEADERS       := include/linux/power/charger-manager.h
KFILES         := $(KDRIVERS_ALL:%=drivers/power/supply/%.c) $(KHEADERS)
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
KDRIVER_SRC    := $(KDRIVERS:%=$(KDIR)/drivers/power/supply/%.c)
KDRIVER_OBJ    := $(KDRIVERS:%=$(BUILD)/obj/kernel/drivers/power/supply/%.o)
KREGISTRY_SRC  := $(BUILD)/gen/cs_linux_modules.c
KREGISTRY_OBJ  := $(BUILD)/obj/gen/cs_linux_modules.o
# Kernel code is built with the kernel's own warning set (it is not ours to change);
# the macros Kbuild would define come from the command line and one forced include.
KWARN     := -Wall -Wno-sign-compare -Wno-pointer-sign -Wno-unused-const-variable \
             -Wno-unused-but-set-variable -Wno-missing-field-initializers
ifeq ($(WERROR),1)
KWARN     += -Werror
endif
KCFLAGS    = -std=gnu11 $(CFLAGS) $(SAN) $(KWARN) -I. -Istack/include -I$(KDIR)/include \
             -include stack/include/chargesim/kconfig.h $(PKG_CFLAGS) -MMD -MP


LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(KDRIVER_OBJ) $(KREGISTRY_OBJ)
# The gnuplot templates (plots/templates/*.gp) join the library as C strings, made by
# plots/templates/gp2c.sh, so that the binary needs no template file at run time.
TPL_SRC   := $(sort $(wildcard plots/templates/*.gp))
TPL_C     := $(BUILD)/gen/plots/templates.c
LIB_OBJ   += $(BUILD)/obj/gen/plots/templates.o
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

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CUNIT_CFLAGS) -c $< -o $@

# Which kernel source the files come from; rewritten only when it changes, so that
# switching between the tarball and KERNEL_SRC extracts again.
$(KDIR)/.origin: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(KORIGIN) $(KDRIVERS)" ] || echo "$(KORIGIN) $(KDRIVERS)" > $@

# One pass over the tarball (it takes ~13 s to scan) extracts every driver file.
ifneq ($(KERNEL_SRC),)
$(KDIR)/.extracted: $(KDIR)/.origin $(KFILES:%=$(KERNEL_SRC)/%)
	@for f in $(KFILES); do mkdir -p $(KDIR)/$$(dirname $$f) && cp $(KERNEL_SRC)/$$f $(KDIR)/$$f || exit 1; done
	@touch $@
else
$(KDIR)/.extracted: $(KDIR)/.origin $(wildcard $(KERNEL_TARBALL))
	@echo "  EXTRACT $(words $(KFILES)) kernel files from $(KERNEL_TARBALL)"
	@tar -xJf $(KERNEL_TARBALL) -C $(KDIR) --strip-components=1 $(KFILES:%=$(KERNEL_TOP)/%)
	@touch $(KDRIVER_SRC) $@
endif

$(KDRIVER_SRC): $(KDIR)/.extracted
	@test -f $@

$(BUILD)/obj/kernel/%.o: $(KDIR)/%.c stack/include/chargesim/kconfig.h
	@mkdir -p $(dir $@)
	$(CC) $(KCFLAGS) -DKBUILD_MODNAME='"$(subst -,_,$(notdir $*))"' \
	  -DKBUILD_BASENAME='"$(subst -,_,$(notdir $*))"' -DCS_KFILE='"$(notdir $*)"' \
	  -DCS_KMODSYM=$(subst -,_,$(notdir $*)) -c $< -o $@

# The list of compiled drivers (per build directory), rewritten only when it changes.
$(BUILD)/gen/.kdrivers: FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = "$(KDRIVERS)." ] || echo "$(KDRIVERS)." > $@

$(KREGISTRY_SRC): $(BUILD)/gen/.kdrivers
	@mkdir -p $(dir $@)
	@{ echo '// SPDX-License-Identifier: GPL-2.0-or-later'; \
	  echo '/* Generated by the Makefile: the real Linux drivers compiled into this build. */'; \
	  echo '#include <chargesim/linux_module.h>'; \
	  for m in $(subst -,_,$(KDRIVERS)); do echo "extern const struct cs_linux_module cs_linux_module_$$m;"; done; \
	  echo 'const struct cs_linux_module *const cs_linux_modules[] = {'; \
	  for m in $(subst -,_,$(KDRIVERS)); do echo "	&cs_linux_module_$$m,"; done; \
	  echo '	NULL,'; echo '};'; } > $@.tmp
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
# function they may call (exported with --export-dynamic from gmodule's flags). The
# objects a run executes, ours and GLib's, are linked first, in the order
# scripts/link-order.txt gives (fewer page faults at start-up and exit:
# scripts/link-order.sh says why and how; `make link-order` writes the list again from
# the link map, $(BIN).map).
BIN_OBJ   := $(CLI_OBJ) $(LIB_OBJ)
LINK_ORDER_SCRIPTS := scripts/link-objects.sh scripts/link-names.awk
$(BIN): $(BIN_OBJ) $(BIN_DEPS) scripts/link-order.txt $(LINK_ORDER_SCRIPTS)
	$(CC) $(LDFLAGS) -o $@ \
		$$(scripts/link-objects.sh scripts/link-order.txt $(BIN_OBJ) $(BIN_ARCHIVE_OBJ)) \
		$(BIN_LDLIBS) -Wl,-Map=$@.map

ifeq ($(STATIC_DEPS),1)
$(GLIB_OBJECTS): $(GLIB_ARCHIVE) scripts/archive-extract.sh
	scripts/archive-extract.sh $(GLIB_ARCHIVE) $(@D)
endif

# Profile the library scenarios and list again what they execute (needs valgrind).
.PHONY: link-order
link-order: $(BIN)
	BIN=$(BIN) MAP=$(BIN).map scripts/link-order.sh > $(BUILD)/link-order.txt.new
	mv $(BUILD)/link-order.txt.new scripts/link-order.txt

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

demo: check-deps
	@$(MAKE) --no-print-directory $(BIN)
	@$(BIN) run scenarios/demo.json -o out/demo --plot

# make gallery: plots/gallery/*.png and plots/gallery/README.md from the bug zoo
# (scenarios/bugzoo/), one overlaid failure-and-fix picture per pair (docs/plots.md).
.PHONY: gallery
gallery: check-deps
	@$(MAKE) --no-print-directory $(BIN)
	@plots/gallery/generate.sh $(BIN)

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

# make bench [BASELINE=REV|PATH] [SPEED_BASELINE=REV|PATH]: bench_sweep runs the
# chargesim of BASELINE, and bench_output the one of SPEED_BASELINE, alternately with
# this build and prints the ratios. A git revision REV is exported (git archive) into
# $(BUILD)/baseline-HASH/ and built there once (scripts/baseline-build.sh); a PATH is a
# chargesim built elsewhere; an empty value runs without one. BASELINE, 19f214a, is the tree before the sweep
# throughput work (sweeps parse their base once, trial steps share their exponentials
# and OCV lookups; its results.csv must be byte-identical). SPEED_BASELINE, 429f108, is
# the tree before the speed work on the queue, the trace-row writer and start-up: the
# whole-process run and --version are timed against it, and this tree's
# bench/bench_output.c, built against its library (when its run/ API still fits),
# gives the in-process figure of that tree beside this one's.
BASELINE       ?= 19f214a
SPEED_BASELINE ?= 429f108
bench: check-deps
	@$(MAKE) --no-print-directory $(BENCH_BINS) $(BIN)
	@export MAKE='$(MAKE)'; \
	sweep=$$(scripts/baseline-build.sh '$(BASELINE)' $(BUILD)) && \
	speed=$$(scripts/baseline-build.sh '$(SPEED_BASELINE)' $(BUILD)) || exit 1; \
	if [ -n "$$sweep" ]; then export CHARGESIM_BASELINE="$$(realpath "$$sweep")"; \
	  echo "== baseline of the sweep benchmark: $$CHARGESIM_BASELINE"; fi; \
	if [ -n "$$speed" ]; then export CHARGESIM_SPEED_BASELINE="$$(realpath "$$speed")"; \
	  echo "== baseline of the output and start-up benchmark: $$CHARGESIM_SPEED_BASELINE"; \
	  sdir=$$(dirname "$$(dirname "$$CHARGESIM_SPEED_BASELINE")"); sbench=$$sdir/build/bench_output_here; \
	  if [ -f "$$sdir/run/world.h" ] && [ -f "$$sdir/Makefile" ] && \
	     $(MAKE) --no-print-directory -C "$$sdir" build/libchargesim.a build/obj/tests/testutil.o >"$$sdir.lib.log" 2>&1 && \
	     $(CC) -std=gnu11 $(CFLAGS) -I"$$sdir" -I"$$sdir/stack/include" -I. $(PKG_CFLAGS) -o "$$sbench" \
	       bench/bench_output.c "$$sdir/build/obj/tests/testutil.o" "$$sdir/build/libchargesim.a" \
	       -Wl,--export-dynamic $(LDLIBS) >>"$$sdir.lib.log" 2>&1; then \
	    export CHARGESIM_SPEED_BASELINE_BENCH="$$(realpath "$$sbench")"; \
	    echo "== in-process baseline: bench/bench_output.c built against $$sdir (log: $$sdir.lib.log)"; \
	  else echo "== no in-process baseline: bench/bench_output.c did not build against $$sdir"; fi; fi; \
	for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

# make same-outputs [BASE=REV|PATH]: every library scenario run by this build and by
# BASE's (default HEAD, the last commit; built as for make bench), their outputs
# compared byte for byte (scripts/same-outputs.sh): for a change, such as a speed-up,
# that must not change a result. Fails when one differs.
BASE ?= HEAD
.PHONY: same-outputs
same-outputs: check-deps $(BIN)
	@export MAKE='$(MAKE)'; old=$$(scripts/baseline-build.sh '$(BASE)' $(BUILD)) || exit 1; \
	if [ -z "$$old" ]; then echo "same-outputs: BASE=$(BASE) is not a chargesim binary or a revision" >&2; exit 2; fi; \
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

clean:
	rm -rf build out

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
