# starfish: `make` builds ./starfish; `make test` builds and runs every test.
CC      ?= gcc
AR      := gcc-ar
# The CPU level the code assumes: x86-64-v2 (any x86-64 from about 2009 on) by default, where
# the rules core picks its BMI2 instantiation at run time (src/core/rules_select.c); `make
# ARCH=x86-64-v3` names a level, `make native` takes every instruction of this machine.
# Link-time optimisation is on (LTO= turns it off); PGO_FLAGS is `make pgo`'s.
ARCH    ?= x86-64-v2
LTO     ?= -flto=auto
# Profile-guided optimisation (`make pgo`, or PGO=1 with any target): the same flags, the code
# laid out by a profile of `starfish bench` taken from a build instrumented for it (PGO=train,
# in build/pgo-train).  Functions the bench never runs (the server's) are optimised as without
# a profile (-fprofile-partial-training), not as cold code.  The profile's files are named by
# the objects' paths below the build folder (-fprofile-prefix-path), the same in both builds.
PGO_PROFILE := $(abspath build/pgo-profile)
PGO_FLAGS_train := -fprofile-generate=$(PGO_PROFILE) -fprofile-prefix-path=$(abspath build/pgo-train)
# The profile's notes (functions LTO dropped from the instrumented build, "missing counts")
# are warnings there, not errors: the same code builds with -Werror without a profile.
PGO_FLAGS_1 := -fprofile-use=$(PGO_PROFILE) -fprofile-prefix-path=$(abspath build/pgo) -fprofile-partial-training \
	-Wno-missing-profile
PGO_FLAGS := $(PGO_FLAGS_$(PGO))
OPT     := -O3 -march=$(ARCH) $(LTO) $(PGO_FLAGS)
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -MMD -MP $(if $(filter 1,$(PGO)),-Wno-error)
LINK    := $(CFLAGS)
CFLAGS  += $(PQ_CFLAGS)
LDLIBS  += -lmicrohttpd -ljansson -lsqlite3 -lpq -lsodium -lz $(CURL_LIBS) -lpthread -lm
# libpq's header lives in PostgreSQL's own include directory.
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
# libcurl (libcurl4-openssl-dev): `starfish bot`'s HTTP client.
CURL_LIBS := $(shell pkg-config --libs libcurl 2>/dev/null || echo -lcurl)

# The rules library (librules.a): the small utilities, the geometries, the rules core and the
# variants.  It links with libc, libm and pthreads alone; everything else builds on it.
RULES_SRC := $(wildcard src/util/*.c src/geometry/*.c src/core/*.c src/variants/*.c)
RULES_LIBS := -lpthread -lm
# src/cluster/ranks_mpi.c is starfish-mpi's alone: starfish has one rank (ranks_local.c).
LIB_SRC := $(RULES_SRC) $(filter-out src/cluster/ranks_mpi.c,$(wildcard src/engine/*.c src/nnue/*.c src/server/*.c src/frontend/*.c \
	src/bot/*.c src/client/*.c src/tablebase/*.c src/cluster/*.c))
UNIT_SRC := $(wildcard tests/unit/*.c)
# The derived tablebase rules and the nets, binary images assembled into the program (.incbin).
LIB_OBJ = $(patsubst %.c,$(1)/%.o,$(LIB_SRC)) $(1)/src/tablebase/derived_blob.o $(1)/src/nnue/nets_blob.o
# The nets built in (src/nnue/nnue_net.c): every data/nets/*.nnue, one after another.
NETS := $(sort $(wildcard data/nets/*.nnue))
BLOBS := src/tablebase/derived_data.bin build/nets.bin

# Build with every core unless told otherwise (make -j1).
MAKEFLAGS += -j$(shell nproc)

# The optimised build lives in build/release (assertions off), a build for another CPU level or
# without LTO in a folder named after it (build/native, build/x86-64-v3-nolto, ...), the
# sanitizer build in build/asan (assertions on: make and unmake check the position's
# invariants at every move).
BUILD_NAME ?= $(if $(filter x86-64-v2,$(ARCH)),release,$(ARCH))$(if $(LTO),,-nolto)
ifeq ($(PGO),1)
BUILD_NAME := pgo
else ifeq ($(PGO),train)
BUILD_NAME := pgo-train
endif
REL := build/$(BUILD_NAME)
ASAN := build/asan
FUZZ := build/fuzz
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all run test test-scale test-tournaments asan librules native pgo install uninstall deb release bench bench-ab perft-deep fuzz-long nets load-test load-test-streams clean FORCE

all: starfish

# The main job: the web app on http://127.0.0.1:8080 (games in starfish.db).
run: starfish
	./starfish serve

# ./starfish is the build of the last make command's flags (`make`, `make native`, `make pgo`).
starfish: $(REL)/starfish FORCE
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@ && echo "./starfish: $(BUILD_NAME) build ($<)"; }

# Every instruction of this machine (the binary may not start on another CPU).
native:
	$(MAKE) ARCH=native starfish

pgo:
	$(MAKE) PGO=1 starfish

# The profile: the instrumented build's counts over `starfish bench` (taken again when a
# source changes).
ifeq ($(PGO),1)
$(call LIB_OBJ,$(REL)) $(REL)/src/main.o: $(PGO_PROFILE)/trained
endif
$(PGO_PROFILE)/trained: $(LIB_SRC) src/main.c $(wildcard src/*/*.h)
	$(MAKE) PGO=train build/pgo-train/starfish
	rm -rf $(PGO_PROFILE) && mkdir -p $(PGO_PROFILE)
	build/pgo-train/starfish bench > /dev/null
	touch $@

# Every object depends on the flags it was compiled with: changed flags rebuild them all.
$(REL)/compiler_flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CFLAGS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(REL)/%.o: %.c $(REL)/compiler_flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DNDEBUG -c $< -o $@

$(ASAN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(OPT),$(CFLAGS)) $(SANFLAGS) -c $< -o $@

# The version, the commit and the flags that shape the code (src/util/version.h), written
# into each build's folder and rewritten only when they change.
VERSION := $(shell cat VERSION)
# Outside git (a source package), the file COMMIT that `make deb` writes says it.
COMMIT ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || cat COMMIT 2>/dev/null || echo unknown)
define version_info
	@mkdir -p $(dir $@)
	@printf '#define STARFISH_VERSION "%s"\n#define STARFISH_COMMIT "%s"\n#define STARFISH_FLAGS "%s"\n' \
		'$(VERSION)' '$(COMMIT)' '$(strip $(1))' > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
endef
$(REL)/version_info.h: FORCE
	$(call version_info,$(OPT))
$(ASAN)/version_info.h: FORCE
	$(call version_info,$(SANFLAGS))
$(FUZZ)/version_info.h: FORCE
	$(call version_info,$(FUZZ_CFLAGS))
$(foreach b,$(REL) $(ASAN) $(FUZZ),$(eval $(b)/src/util/version.o: $(b)/version_info.h))
$(foreach b,$(REL) $(ASAN),$(eval $(b)/src/util/version.o: CFLAGS += -I$(b)))
$(FUZZ)/src/util/version.o: FUZZ_CFLAGS += -I$(FUZZ)

# The BMI2 instantiation of the rules (its pragma sets the instructions) stays out of LTO, so
# that tools/check_isa.py finds its code in the link map: the only code allowed BMI2.
$(REL)/src/core/rules_w1_pext.o: CFLAGS += -fno-lto
# So do the nets' row loops, with their AVX2 clones (src/nnue/nnue_simd.h).
$(REL)/src/nnue/nnue_simd.o: CFLAGS += -fno-lto

build/nets.bin: $(NETS) data/nets
	@mkdir -p build
	cat /dev/null $(NETS) > $@

$(REL)/%.o: %.S $(BLOBS)
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(ASAN)/%.o: %.S $(BLOBS)
	@mkdir -p $(dir $@)
	$(CC) -c $< -o $@

$(REL)/starfish: $(call LIB_OBJ,$(REL)) $(REL)/src/main.o
	$(CC) $(LINK) $^ -o $@ $(LDLIBS) -Wl,-Map=$@.map

# starfish-mpi: the same program with MPI ranks (Open MPI's mpicc), for `mpirun -n K
# starfish-mpi match|tb generate ...`; only ranks_mpi.o differs from starfish.
MPICC ?= mpicc
MPI_OBJ = $(filter-out $(REL)/src/cluster/ranks_local.o,$(call LIB_OBJ,$(REL))) $(REL)/src/cluster/ranks_mpi.o

starfish-mpi: $(REL)/starfish-mpi FORCE
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@ && echo "./starfish-mpi: $(BUILD_NAME) build ($<)"; }

$(REL)/src/cluster/ranks_mpi.o: src/cluster/ranks_mpi.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) -c $< -o $@

$(REL)/starfish-mpi: $(MPI_OBJ) $(REL)/src/main.o
	$(MPICC) $(LINK) $^ -o $@ $(LDLIBS)

$(REL)/unit-tests: $(call LIB_OBJ,$(REL)) $(patsubst %.c,$(REL)/%.o,$(UNIT_SRC))
	$(CC) $(LINK) $^ -o $@ $(LDLIBS)

$(ASAN)/starfish: $(call LIB_OBJ,$(ASAN)) $(ASAN)/src/main.o
	$(CC) $(SANFLAGS) $^ -o $@ $(LDLIBS)

$(ASAN)/unit-tests: $(call LIB_OBJ,$(ASAN)) $(patsubst %.c,$(ASAN)/%.o,$(UNIT_SRC))
	$(CC) $(SANFLAGS) $^ -o $@ $(LDLIBS)

$(REL)/librules.a: $(patsubst %.c,$(REL)/%.o,$(RULES_SRC))
	rm -f $@ && $(AR) rcs $@ $^

# Perft on the rules library alone: every member linked in, no library but RULES_LIBS, so
# that a rules file reaching above the rules fails to link.
$(REL)/rules-perft: tests/librules/rules_perft.c $(REL)/librules.a
	$(CC) $(LINK) -DNDEBUG $< -Wl,--whole-archive $(REL)/librules.a -Wl,--no-whole-archive -o $@ $(RULES_LIBS)

librules: $(REL)/librules.a $(REL)/rules-perft

# libFuzzer targets (clang, ASan+UBSan): one per tests/fuzz/fuzz_NAME.c, built as
# build/fuzz/fuzz-NAME from the library compiled once for them, the checks they share and a
# stand-in for libmicrohttpd (the server's handlers answer requests made in memory).
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(addprefix $(FUZZ)/fuzz-,$(FUZZ_TARGETS))
FUZZ_HELPERS := $(patsubst %.c,$(FUZZ)/%.o,tests/fuzz/check.c tests/fuzz/fake_mhd.c)
# -O2, not libFuzzer's usual -O1: at -O1 clang leaves the generator's small helpers out of line,
# and the cell sets they take by value (24 bytes in Megastar) were copied through ASan's checked
# memcpy, a quarter of the moves target's CPU; -O2 took 10-15 % off moves and uci per input.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -MMD -MP -g -O2 -fsanitize=address,undefined -fno-sanitize-recover=all $(PQ_CFLAGS)
# The rules core and the search compare cells, pieces, keys and scores, never the input's
# bytes, so libFuzzer's comparison tracing there gave its mutations nothing to use while it
# took 35-50 % of the targets' CPU: these files keep edge coverage without it.
FUZZ_NO_CMP := $(addprefix src/core/,attack.c mate.c movegen.c perft.c position.c rules_w1.c rules_w3.c) \
	$(addprefix src/engine/,eval.c history.c movepick.c node.c quiescence.c root.c search.c see.c threads.c tt.c)
$(patsubst %.c,$(FUZZ)/%.o,$(FUZZ_NO_CMP)): FUZZ_CFLAGS += -fno-sanitize-coverage=trace-cmp
# make and unmake check the whole position after one move in 8 (position.c says why).
$(FUZZ)/src/core/position.o: FUZZ_CFLAGS += -DPOS_CHECK_ONE_IN=8
# How long `make fuzz-long` runs each target (seconds), and where its corpora grow.
FUZZ_SECONDS ?= 600
FUZZ_CORPUS ?= build/fuzz-corpus

$(FUZZ)/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ)/%.o: %.S $(BLOBS)
	@mkdir -p $(dir $@)
	clang -c $< -o $@

.SECONDARY: $(call LIB_OBJ,$(FUZZ)) $(FUZZ_HELPERS) $(patsubst %,$(FUZZ)/tests/fuzz/fuzz_%.o,$(FUZZ_TARGETS))

$(FUZZ)/fuzz-%: $(call LIB_OBJ,$(FUZZ)) $(FUZZ)/tests/fuzz/fuzz_%.o $(FUZZ_HELPERS)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ $(filter-out -lmicrohttpd,$(LDLIBS)) $(FUZZ_LDFLAGS)

# The UCI sessions share one engine with a one-bucket table and one search thread, each
# search stops at a few thousand nodes and each perft at a few plies (fuzz_uci.c says why).
$(FUZZ)/fuzz-uci: FUZZ_LDFLAGS := -Wl,--wrap=engine_init,--wrap=engine_free,--wrap=search_run,--wrap=pthread_create,--wrap=pthread_join,--wrap=perft_divide_moves

asan: $(ASAN)/starfish $(ASAN)/unit-tests

# A shim that makes memory or the disk fail on demand, for the server's tests.
build/faults.so: tests/api/faults.c
	@mkdir -p build
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -shared -fPIC $< -o $@

# Every test: unit, perft suites (and the smaller ones on the rules library alone), protocol,
# fuzzing, MPI ranks, then the suite again under ASan+UBSan.
test: starfish starfish-mpi $(REL)/unit-tests librules asan $(FUZZ_BINS) build/faults.so tests/browser/node_modules
	python3 tests/run.py

# Running on several processes (tests/scale): matches and tablebases on MPI ranks, with the
# 4-man tables generated on two ranks and compared with one process, and the web app on two
# instances behind nginx on one PostgreSQL database (a few minutes).
test-scale: starfish starfish-mpi
	python3 tests/run.py --only scale

# Tournaments played by `starfish bot` processes (issue 33, minutes; not part of `make test`):
# an arena of 8 bots over 6 minutes on SQLite, the same on two instances on PostgreSQL behind
# nginx with the director's instance killed half-way, and a round robin of 4 bots; standings
# and cross tables checked against the stored games.
test-tournaments: starfish
	python3 tests/run.py --only tournament

# playwright-core for the browser tests (it drives Debian's chromium; no browser download).
tests/browser/node_modules: tests/browser/package.json tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund
	touch $@

# Deep perft counts (minutes) and the perft benchmark beside Stockfish and Fairy-Stockfish
# (BASELINE=path/to/an/older/starfish measures it beside this one).
perft-deep: starfish
	python3 tests/run.py --deep

bench: starfish
	python3 tools/bench_perft.py $(if $(BASELINE),--baseline $(BASELINE))

# The search speed of this build against BASELINE when both search the same trees: both at
# once, one a core (tools/bench_ab.py).
bench-ab: starfish
	python3 tools/bench_ab.py ./starfish $(BASELINE)

# Nets made from nothing (tools/train-net.sh, docs/nnue.md): for each of NET_VARIANTS (the
# games with a built-in net), ROUNDS rounds of self-play data and training in
# build/nets-work/VARIANT.  Hours on two cores; a net replaces data/nets' only after a match.
NET_VARIANTS ?= $(basename $(notdir $(NETS)))
nets: starfish
	for v in $(NET_VARIANTS); do tools/train-net.sh $$v $(or $(ROUNDS),2) || exit 1; done

# A bounded load test of the web server on loopback (games, players, spectators, then wrk).
load-test: starfish
	python3 tools/load_test.py

# Event streams, moves meanwhile: one server as far as its open-file limit allows, then 50,000
# on 3 instances sharing a throw-away PostgreSQL database: threads, memory per stream, CPU, p99,
# event sizes (tools/load_streams.py).
load-test-streams: starfish
	python3 tools/load_test.py --streams 50000 --instances 3 --seconds 60 --moves 150

# Each fuzz target for FUZZ_SECONDS, one after the other at the lowest priority, its corpus
# kept in FUZZ_CORPUS/NAME between runs; FUZZ_TARGETS="api pgn" picks some.
fuzz-long: $(FUZZ_BINS)
	nice -n 19 python3 tests/run.py --only fuzz --fuzz-seconds $(FUZZ_SECONDS) --fuzz-corpus $(FUZZ_CORPUS) \
		--fuzz-targets "$(FUZZ_TARGETS)"

# ---- Install: the places the Filesystem Hierarchy Standard names -----------------------------
# make install [PREFIX=/usr/local] [DESTDIR=DIR] [WITH_MPI=1]: the program (and starfish-mpi),
# the web client and data/ in PREFIX/share/starfish (where `serve` finds them, from the
# program's own path), the manual page, the documentation, the systemd units and the service's
# user (sysusers.d), and /etc/starfish/starfish.env unless it is there (your settings stay).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SHAREDIR ?= $(PREFIX)/share/starfish
MANDIR ?= $(PREFIX)/share/man/man1
DOCDIR ?= $(PREFIX)/share/doc/starfish
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
SYSCONFDIR ?= /etc
UNITS := starfish.service starfish-backup.service starfish-backup.timer
DOCS := README.md CHANGELOG.md SECURITY.md $(wildcard docs/*.md)

# The manual page, written from the program's own help (tools/make_man.py).
$(REL)/starfish.1: $(REL)/starfish tools/make_man.py
	python3 tools/make_man.py $< > $@.tmp && mv $@.tmp $@

install: starfish $(REL)/starfish.1 $(if $(WITH_MPI),starfish-mpi)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)/docs \
		$(DESTDIR)$(DOCDIR)/deploy $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(SYSCONFDIR)/starfish
	install -m 755 starfish $(if $(WITH_MPI),starfish-mpi) $(DESTDIR)$(BINDIR)/
	rm -rf $(DESTDIR)$(SHAREDIR)/web $(DESTDIR)$(SHAREDIR)/data
	cp -R web data $(DESTDIR)$(SHAREDIR)/
	chmod -R u=rwX,go=rX $(DESTDIR)$(SHAREDIR)
	install -m 644 $(REL)/starfish.1 $(DESTDIR)$(MANDIR)/starfish.1
	install -m 644 $(filter-out docs/%,$(DOCS)) $(DESTDIR)$(DOCDIR)/
	install -m 644 $(filter docs/%,$(DOCS)) $(DESTDIR)$(DOCDIR)/docs/
	install -m 644 deploy/nginx.conf deploy/nginx-club.conf $(DESTDIR)$(DOCDIR)/deploy/
	for unit in $(UNITS); do sed 's|/usr/bin/starfish |$(BINDIR)/starfish |g; s|/etc/starfish/|$(SYSCONFDIR)/starfish/|g' \
		deploy/$$unit > $(DESTDIR)$(UNITDIR)/$$unit && chmod 644 $(DESTDIR)$(UNITDIR)/$$unit; done
	install -m 644 deploy/starfish.sysusers $(DESTDIR)$(SYSUSERSDIR)/starfish.conf
	test -e $(DESTDIR)$(SYSCONFDIR)/starfish/starfish.env || \
		install -m 644 deploy/starfish.env $(DESTDIR)$(SYSCONFDIR)/starfish/starfish.env

# Everything install put there but the settings in /etc/starfish (and the service's games).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/starfish $(DESTDIR)$(BINDIR)/starfish-mpi $(DESTDIR)$(MANDIR)/starfish.1 \
		$(DESTDIR)$(SYSUSERSDIR)/starfish.conf $(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS))
	rm -rf $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(DOCDIR)

# The Debian packages starfish and starfish-mpi (debian/), built by dpkg-buildpackage from the
# committed tree copied into build/deb/starfish: build/deb/starfish_VERSION_amd64.deb.
deb:
	rm -rf build/deb && mkdir -p build/deb/starfish
	git archive HEAD | tar -x -C build/deb/starfish
	git describe --always --abbrev=12 > build/deb/starfish/COMMIT
	cd build/deb/starfish && dpkg-buildpackage -us -uc -b

# Tags vX.Y.Z from VERSION once CHANGELOG.md dates it and everything is committed.
release:
	tools/release.sh

clean:
	rm -rf build starfish starfish-mpi

-include $(shell find build -path build/deb -prune -o -name '*.d' -type f -print 2>/dev/null)
