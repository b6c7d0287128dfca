# kbench - see README.md.
#
#   make            build ./kbench
#   make check      install missing deps, build with ASan+UBSan and -Werror, run all tests
#   make golden-update  rewrite tests/golden/ (expected outputs) from this build
#   make demo       install missing deps, import samples/ into demo/kbench.db, list it
#   make bench      import a generated corpus and print throughput
#   make install    PREFIX=/usr/local

PREFIX ?= /usr/local
# Where objects go; give each concurrent build its own (make BUILD=/tmp/x unit).
BUILD ?= build
CC ?= cc
PKGS = sqlite3 libpcre2-8 jansson cairo pangocairo libRmath zlib
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WARN = -Wall -Wextra -Wstrict-prototypes -Wvla -Wno-unused-parameter
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) $(PKG_CFLAGS) -D_GNU_SOURCE
LIBS = $(PKG_LIBS) -lcsv -lm -pthread
SAN = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

MODULES = core ingest db analyze render cli
LIB_SRC = $(sort $(foreach d,core ingest db analyze render,$(wildcard $(d)/*.c)))
CLI_SRC = $(sort $(wildcard cli/*.c))
UNIT_SRC = $(sort $(wildcard tests/unit/*.c))
HDRS = $(wildcard $(addsuffix /*.h,$(MODULES)) tests/unit/*.h)

OBJ = $(patsubst %.c,$(BUILD)/rel/%.o,$(LIB_SRC) $(CLI_SRC))
CHK_LIB_OBJ = $(patsubst %.c,$(BUILD)/chk/%.o,$(LIB_SRC))
CHK_CLI_OBJ = $(patsubst %.c,$(BUILD)/chk/%.o,$(CLI_SRC))
CHK_UNIT_OBJ = $(patsubst %.c,$(BUILD)/chk/%.o,$(UNIT_SRC))

.PHONY: all deps check check-build unit demo bench install clean golden-update

all: kbench

kbench: $(OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -o $@ $(OBJ) $(LIBS)

$(BUILD)/rel/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/chk/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC+SAN  $<"
	@$(CC) $(ALL_CFLAGS) -Werror -O1 $(SAN) -c -o $@ $<

$(BUILD)/chk/kbench: $(CHK_LIB_OBJ) $(CHK_CLI_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LIBS)

$(BUILD)/chk/unit: $(CHK_LIB_OBJ) $(CHK_UNIT_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(SAN) -o $@ $^ $(LIBS)

deps:
	@scripts/install-deps

check:
	@scripts/install-deps --check
	@$(MAKE) --no-print-directory -j2 check-build
	@CHK=$(BUILD)/chk tests/run

check-build: $(BUILD)/chk/kbench $(BUILD)/chk/unit $(BUILD)/chk/pnginfo

# Test helper: decodes PNGs with cairo (size, distinct colours).
$(BUILD)/chk/pnginfo: tests/tools/pnginfo.c
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -Werror -O1 $(SAN) -o $@ $< $(LIBS)

# Rewrite tests/golden/ from the current build (review the diff, then commit).
golden-update: check-build
	@GOLDEN_UPDATE=1 KB=$(abspath $(BUILD))/chk/kbench KBENCH_SHARED=$${KBENCH_SHARED:-$(abspath ..)/shared} \
		KBENCH_SAMPLES=$(abspath samples) bash tests/cli/golden.sh | grep -v '^PASS '

# Sanitised unit-test binary only: $(BUILD)/chk/unit [name-filter]
unit: $(BUILD)/chk/unit

demo: deps
	@$(MAKE) --no-print-directory kbench
	@scripts/demo

bench: deps
	@$(MAKE) --no-print-directory kbench
	@scripts/bench

install: kbench
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 kbench $(DESTDIR)$(PREFIX)/bin/kbench

clean:
	rm -rf $(BUILD) kbench demo
