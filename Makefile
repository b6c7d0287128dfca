# kbench - see README.md.
#
#   make            build ./kbench
#   make check      install missing deps, build with ASan+UBSan and -Werror, run all tests
#   make golden-update  rewrite tests/golden/ (expected outputs) from this build
#   make demo       install missing deps, build kbench and its man pages, import
#                   samples/ into demo/kbench.db, list it
#   make bench      import a generated corpus and print throughput
#   make bench-lab  generate a lab's lkp tree, import it, time analysis on it
#   make install    PREFIX=/usr/local (the binary, man pages, bash and zsh completion)
#   make man        build/man/kbench.1 and kbench-VERB.1, from the option tables
#   make fuzz       build the libFuzzer target (clang) and run it (FUZZ_SECONDS, default 60)
#   make tsan       ThreadSanitizer build of kbench, importing bench/small and reporting on it

PREFIX ?= /usr/local
# Where objects go; give each concurrent build its own (make BUILD=/tmp/x unit).
BUILD ?= build
CC ?= cc
PKGS = sqlite3 libpq libpcre2-8 jansson cairo pangocairo libRmath zlib nettle
# pkg-config runs once per make (:=), not once per compile.  A package it
# cannot find is named; the build goes on only for targets that need no
# compiler flags (deps, clean), where PKG_MISSING is just a message.
PKG_MISSING := $(strip $(foreach p,$(PKGS),$(if $(shell pkg-config --exists $(p) 2>/dev/null && echo y),,$(p))))
ifneq ($(PKG_MISSING),)
ifeq ($(filter deps clean check demo bench fuzz,$(MAKECMDGOALS)),)
$(error pkg-config cannot find: $(PKG_MISSING) (run scripts/install-deps))
endif
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WARN = -Wall -Wextra -Wstrict-prototypes -Wvla -Wno-unused-parameter
CFLAGS ?= -O2 -g
# -MMD -MP: the compiler writes each object's header dependencies (.d).
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(PKG_CFLAGS) -D_GNU_SOURCE $(CPPFLAGS) -MMD -MP
LIBS = $(PKG_LIBS) -lcsv -lm -pthread
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# LeakSanitizer suppressions for library caches: sanitised builds only.
LSAN_SUPP = tests/tools/lsan_suppress.c

MODULES = core ingest db import analyze render cli
LIB_SRC = $(sort $(foreach d,core ingest db import analyze render,$(wildcard $(d)/*.c)))
CLI_SRC = $(sort $(wildcard cli/*.c))
UNIT_SRC = $(sort $(wildcard tests/unit/*.c))

OBJ = $(patsubst %.c,$(BUILD)/rel/%.o,$(LIB_SRC) $(CLI_SRC))
CHK_LIB_OBJ = $(patsubst %.c,$(BUILD)/chk/%.o,$(LIB_SRC))
CHK_CLI_OBJ = $(patsubst %.c,$(BUILD)/chk/%.o,$(CLI_SRC))
CHK_UNIT_OBJ = $(patsubst %.c,$(BUILD)/chk/%.o,$(UNIT_SRC))
CHK_SUPP_OBJ = $(BUILD)/chk/tests/tools/lsan_suppress.o
CHK_FUZZ_OBJ = $(BUILD)/chk/tests/fuzz/fuzz_import.o $(BUILD)/chk/tests/fuzz/replay.o

# make fuzz: clang with libFuzzer (Debian: clang, libclang-rt-dev).
FUZZ_CC ?= clang
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_OBJ = $(patsubst %.c,$(BUILD)/fuzz/%.o,$(LIB_SRC) tests/fuzz/fuzz_import.c)
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= $(BUILD)/fuzz/corpus

# make tsan: the release sources with ThreadSanitizer.
TSAN_OBJ = $(patsubst %.c,$(BUILD)/tsan/%.o,$(LIB_SRC) $(CLI_SRC))

.PHONY: all deps check check-build unit demo bench bench-lab install clean man fuzz fuzz-build tsan golden-update realposts

all: kbench man

# Man pages, written by kbench itself from the tables that print --help
# (kbench --man [VERB]), so they cannot drift from the options.
MAN_DIR = $(BUILD)/man
man: $(MAN_DIR)/kbench.1

$(MAN_DIR)/kbench.1: kbench
	@mkdir -p $(MAN_DIR)
	@echo "  MAN     $(MAN_DIR)"
	@rm -f $(MAN_DIR)/*.1
	@./kbench --man > $@.tmp
	@for v in $$(./kbench __complete 1 kbench '' | grep -v '^-' | grep -vx help); do \
		./kbench --man $$v > $(MAN_DIR)/kbench-$$v.1 || exit 1; done
	@mv $@.tmp $@

kbench: $(OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(LIBS)

$(BUILD)/rel/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/chk/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC+SAN  $<"
	@$(CC) $(ALL_CFLAGS) -Werror -O1 $(SAN) -c -o $@ $<

$(BUILD)/chk/kbench: $(CHK_LIB_OBJ) $(CHK_CLI_OBJ) $(CHK_SUPP_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(SAN) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/chk/unit: $(CHK_LIB_OBJ) $(CHK_UNIT_OBJ) $(CHK_SUPP_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(SAN) $(LDFLAGS) -o $@ $^ $(LIBS)

# The fuzz target without libFuzzer: make check replays tests/fuzz/corpus
# and tests/fuzz/crashes with it.
$(BUILD)/chk/replay: $(CHK_LIB_OBJ) $(CHK_FUZZ_OBJ) $(CHK_SUPP_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(SAN) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC+FUZZ $<"
	@$(FUZZ_CC) $(ALL_CFLAGS) -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) -c -o $@ $<

$(BUILD)/fuzz/fuzz_import: $(FUZZ_OBJ) $(BUILD)/fuzz/tests/tools/lsan_suppress.o
	@echo "  LD      $@"
	@$(FUZZ_CC) $(ALL_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) $(LDFLAGS) -o $@ $^ $(LIBS)

fuzz-build: $(BUILD)/fuzz/fuzz_import

# Runs the fuzzer for FUZZ_SECONDS on a copy of the committed corpus
# (new inputs go to FUZZ_DIR, the committed seeds stay as they are); a
# crash input is written to $(BUILD)/fuzz/ and the run fails.
fuzz:
	@scripts/install-deps --fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@mkdir -p $(FUZZ_DIR)
	$(BUILD)/fuzz/fuzz_import -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -dict=tests/fuzz/kbench.dict -artifact_prefix=$(BUILD)/fuzz/ \
		-print_final_stats=1 $(FUZZ_DIR) tests/fuzz/corpus tests/fuzz/crashes

$(BUILD)/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC+TSAN $<"
	@$(CC) $(ALL_CFLAGS) -O1 -g -fsanitize=thread -c -o $@ $<

$(BUILD)/tsan/kbench: $(TSAN_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -fsanitize=thread $(LDFLAGS) -o $@ $^ $(LIBS)

# The import pipeline (reader thread, queue, store) under ThreadSanitizer,
# over the quarter-size bench corpus (generated as make bench does).
tsan: $(BUILD)/tsan/kbench
	@scripts/bench --corpus small
	@rm -f $(BUILD)/tsan/small.db $(BUILD)/tsan/small.db-wal $(BUILD)/tsan/small.db-shm
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 $(TSAN_OPTIONS)" \
		$(BUILD)/tsan/kbench import --db $(BUILD)/tsan/small.db bench/small >/dev/null
	@echo "tsan: import of bench/small clean"
	@rm -rf $(BUILD)/tsan/report-assets
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/tools/tsan.supp $(TSAN_OPTIONS)" \
		$(BUILD)/tsan/kbench report --db $(BUILD)/tsan/small.db -o $(BUILD)/tsan/report.html \
		--assets $(BUILD)/tsan/report-assets
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/tools/tsan.supp $(TSAN_OPTIONS)" \
		$(BUILD)/tsan/kbench report --db $(BUILD)/tsan/small.db -o $(BUILD)/tsan/report-inline.html
	@echo "tsan: report of bench/small, its charts drawn on worker threads (files and inline), clean"

deps:
	@scripts/install-deps

# The real-post measure (tests/realposts/README.md): every post imported
# alone, every hand-read value and comparison checked against the floor.
realposts: deps
	@$(MAKE) --no-print-directory kbench
	@scripts/realposts --floor tests/realposts/FLOOR

check:
	@scripts/install-deps --check
	@$(MAKE) --no-print-directory -j2 check-build
	@CHK=$(BUILD)/chk tests/run

# kbench (the release build): tests/cli/safe_input.sh measures its time and memory.
check-build: $(BUILD)/chk/kbench $(BUILD)/chk/unit $(BUILD)/chk/pnginfo $(BUILD)/chk/replay kbench

# Test helper: decodes PNGs with cairo (size, distinct colours).
$(BUILD)/chk/pnginfo: tests/tools/pnginfo.c $(CHK_SUPP_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -Werror -O1 $(SAN) $(LDFLAGS) -o $@ $< $(CHK_SUPP_OBJ) $(LIBS)

# Rewrite tests/golden/ from the current build (review the diff, then commit).
golden-update: check-build
	@GOLDEN_UPDATE=1 KB=$(abspath $(BUILD))/chk/kbench KBENCH_SHARED=$${KBENCH_SHARED:-$(abspath ..)/shared} \
		KBENCH_SAMPLES=$(abspath samples) bash tests/cli/golden.sh | grep -v '^PASS '

# Sanitised unit-test binary only: $(BUILD)/chk/unit [name-filter]
unit: $(BUILD)/chk/unit

# The man pages too: the demo's last lines say how to read them.
demo: deps
	@$(MAKE) --no-print-directory kbench man
	@MAN_DIR=$(MAN_DIR) scripts/demo

bench: deps
	@$(MAKE) --no-print-directory kbench
	@scripts/bench

bench-lab: deps
	@$(MAKE) --no-print-directory kbench
	@scripts/bench-lab

install: kbench man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 755 kbench $(DESTDIR)$(PREFIX)/bin/kbench
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 completion/kbench.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kbench
	install -m 644 completion/_kbench $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_kbench

clean:
	rm -rf $(BUILD) kbench demo

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/*/*/*.d $(BUILD)/*/*/*/*.d)
