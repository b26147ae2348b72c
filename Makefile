# dvsim - cycle-approximate simulator of the Da Vinci AI Core.
#
#   make          build $(BIN)/dvsim (and the generated docs)
#   make demo     install missing packages, build, run the default job on the embedded 910B2 profile
#   make test     install missing packages, build, run every test
#   make bench    speed benchmark (prints figures; not a test)
#   make validate fidelity suite: calibration cases vs measured, roofline checks, microbenchmarks (prints figures;
#                 rewrites docs/FIDELITY.md's generated section; not a test)
#   make asan     every test again on an AddressSanitizer + UBSan build (build/asan)
#   make install PREFIX=DIR   the AscendCL shim laid out like a CANN install: DIR/include, DIR/lib
#                 (libascendcl.so, libnnopbase.so, libopapi.so; lib64 -> lib), DIR/lib/pkgconfig, DIR/bin/dvsim

CC      ?= gcc
CXX     ?= g++
PKGS    := libsystemc-dev libyaml-dev check pkg-config python3 python3-numpy
B       ?= build
BIN     ?= bin
WARN    := -Wall -Wextra -Werror
OPT     ?= -O2 -g
CPPFLAGS += -Iinclude -Iisa -Iconfigs -Iops -I$(B) -I$(B)/include
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN)
CXXFLAGS += -std=c++17 $(OPT) $(WARN)
PKGCONF := $(shell command -v pkg-config 2>/dev/null)
SC_CFLAGS := $(if $(PKGCONF),$(shell pkg-config --cflags systemc 2>/dev/null))
SC_LIBS   := $(if $(PKGCONF),$(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)
YAML_LIBS := $(if $(PKGCONF),$(shell pkg-config --libs yaml-0.1 2>/dev/null),-lyaml)
CHECK_LIBS := $(if $(PKGCONF),$(shell pkg-config --libs check 2>/dev/null),-lcheck)
LIBS    := $(SC_LIBS) $(YAML_LIBS) -lm -lpthread

# Library sources: everything under base/, isa/, configs/, model/, kernel/, ops/, sim/ (except the
# program's main), the microbenchmarks (bench/micro.c) and acl/ (the AscendCL shim).
C_SRCS   := $(wildcard base/*.c) $(wildcard isa/*.c) $(wildcard configs/*.c) $(wildcard kernel/*.c) $(wildcard ops/*.c) \
            $(filter-out sim/main.c,$(wildcard sim/*.c)) bench/micro.c $(filter-out acl/alias.c,$(wildcard acl/*.c))
CXX_SRCS := $(wildcard model/*.cpp)
GEN_C    := $(B)/profiles_embedded.c
GEN_H    := $(B)/include/dv/kapi_insn.h
LIB_OBJS := $(C_SRCS:%.c=$(B)/%.o) $(CXX_SRCS:%.cpp=$(B)/%.o) $(GEN_C:%.c=%.o)
TEST_SRCS := $(wildcard tests/check_*.c) tests/runner.c $(wildcard tests/support/*.c) bench/fidelity.c
TEST_OBJS := $(TEST_SRCS:%.c=$(B)/%.o) $(patsubst %.cpp,$(B)/%.o,$(wildcard tests/check_*.cpp))
PROFILES := $(wildcard configs/*.yaml)

DOCS := docs/ISA.md configs/SCHEMA.md docs/OPS.md docs/OP_SUMMARY.md docs/MICRO.md

.PHONY: all deps demo test bench validate asan clean docs install shim
all: $(BIN)/dvsim docs shim

# ---- dependencies: install what is missing through apt-get when we can ----
deps:
	@missing=""; for p in $(PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "dvsim: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else \
	    echo "dvsim: please install:$$missing (apt-get install$$missing)"; exit 1; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# ---- build ----
$(B)/%.o: %.c | $(B)/dirs $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(B)/%.o: %.cpp | $(B)/dirs
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(SC_CFLAGS) $(CXXFLAGS) -MMD -MP -c $< -o $@
$(B)/dirs:
	@mkdir -p $(B)/base $(B)/bench $(B)/isa $(B)/configs $(B)/model $(B)/kernel $(B)/ops $(B)/sim $(B)/acl $(B)/tests/support $(B)/tools \
	  $(B)/include/dv $(B)/lib $(BIN)
	@touch $@

# Built-in profiles: the YAML files compiled in, so dvsim runs with no files at all.
$(B)/tools/embed: tools/embed.c | $(B)/dirs
	$(CC) $(CFLAGS) $< -o $@
$(GEN_C): $(B)/tools/embed $(PROFILES)
	$(B)/tools/embed $(PROFILES) > $@.tmp && mv $@.tmp $@
# The kernel API's instruction functions: one dvk_<mnemonic> per row of isa/isa.def.
$(B)/tools/genkapi: tools/genkapi.c isa/isa.c base/error.c isa/isa.def isa/fields.def | $(B)/dirs
	$(CC) $(CPPFLAGS) $(CFLAGS) tools/genkapi.c isa/isa.c base/error.c -o $@
$(GEN_H): $(B)/tools/genkapi
	@mkdir -p $(dir $@)
	$(B)/tools/genkapi > $@.tmp && mv $@.tmp $@

$(B)/profiles_embedded.o: $(GEN_C)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libdv.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# The operators are linked as objects: the registry (ops/op.c) refers to them weakly.
OPS_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard ops/*.c))

$(BIN)/dvsim: $(B)/sim/main.o $(OPS_OBJS) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(LIBS)

# ---- the AscendCL shim: one shared library with the whole simulator, and the two other names
# CANN programs link (-lnnopbase -lopapi) as thin libraries that depend on it ----
PIC_OBJS := $(LIB_OBJS:$(B)/%.o=$(B)/pic/%.o)
SHIM_LIBS := $(B)/lib/libascendcl.so $(B)/lib/libnnopbase.so $(B)/lib/libopapi.so
$(B)/pic/%.o: %.c | $(B)/dirs $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@
$(B)/pic/%.o: %.cpp | $(B)/dirs
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(SC_CFLAGS) $(CXXFLAGS) -fPIC -MMD -MP -c $< -o $@
$(B)/pic/profiles_embedded.o: $(GEN_C)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@
$(B)/lib/libascendcl.so: $(PIC_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) -shared -Wl,-soname,libascendcl.so -Wl,--no-undefined $(LDFLAGS) $^ -o $@ $(LIBS)
$(B)/lib/libnnopbase.so $(B)/lib/libopapi.so: acl/alias.c $(B)/lib/libascendcl.so
	$(CC) $(CFLAGS) -fPIC -shared -Wl,-soname,$(notdir $@) -DDV_ALIAS_OF='"$(notdir $@)"' acl/alias.c -o $@ \
	  -L$(B)/lib -Wl,--no-as-needed -lascendcl -Wl,-rpath,'$$ORIGIN'
shim: $(SHIM_LIBS)

PREFIX ?= /usr/local
DEV_HEADERS := $(wildcard include/dv/*.h) isa/isa.def isa/fields.def configs/params.def
install: shim $(BIN)/dvsim
	mkdir -p $(PREFIX)/include/dv $(PREFIX)/lib/pkgconfig $(PREFIX)/bin
	cp -R include/acl include/aclnn include/aclnnop include/dvsim $(PREFIX)/include/
	cp $(DEV_HEADERS) $(GEN_H) $(PREFIX)/include/dv/
	cp $(SHIM_LIBS) $(PREFIX)/lib/
	ln -sfn lib $(PREFIX)/lib64
	cp $(BIN)/dvsim $(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@VERSION@|'"$$(sed -n 's/.*DV_SIM_VERSION "\(.*\)"/\1/p' include/dv/sim.h)"'|' \
	  acl/ascendcl.pc.in > $(PREFIX)/lib/pkgconfig/ascendcl.pc

# ---- generated documentation (from the tables; never edit by hand) ----
$(B)/tools/gendoc: tools/gendoc.c $(OPS_OBJS) $(B)/libdv.a
	$(CXX) $(CPPFLAGS) -x c -std=c11 $(WARN) -c tools/gendoc.c -o $(B)/tools/gendoc.o
	$(CXX) $(LDFLAGS) $(B)/tools/gendoc.o $(OPS_OBJS) $(B)/libdv.a -o $@ $(LIBS)
docs/ISA.md: $(B)/tools/gendoc
	$(B)/tools/gendoc isa > $@.tmp && mv $@.tmp $@
configs/SCHEMA.md: $(B)/tools/gendoc
	$(B)/tools/gendoc schema > $@.tmp && mv $@.tmp $@
docs/OPS.md: $(B)/tools/gendoc
	$(B)/tools/gendoc ops > $@.tmp && mv $@.tmp $@
docs/OP_SUMMARY.md: $(B)/tools/gendoc
	$(B)/tools/gendoc opsummary > $@.tmp && mv $@.tmp $@
docs/MICRO.md: $(B)/tools/gendoc
	$(B)/tools/gendoc micro > $@.tmp && mv $@.tmp $@
docs: $(DOCS)

# ---- quick start ----
demo: deps
	$(MAKE) -j2 all
	$(BIN)/dvsim run traces/vadd_double_buffer.trace

$(B)/check_dvsim: $(TEST_OBJS) $(OPS_OBJS) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(CHECK_LIBS) $(LIBS)

test: deps
	$(MAKE) -j2 all $(B)/check_dvsim
	$(MAKE) install PREFIX=$(B)/install
	DVSIM_ROOT=$(CURDIR) DVSIM=$(abspath $(BIN)/dvsim) $(B)/check_dvsim
	DVSIM=$(abspath $(BIN)/dvsim) B=$(B) sh tests/golden.sh
	PREFIX=$(abspath $(B)/install) B=$(B) sh tests/examples.sh

ASAN := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer
# use_stacks=0: LeakSanitizer's second pass (after suppressions) can read the guard pages of the
# stack it has registered for the main thread, a SystemC coroutine stack, and crash.  Without stacks
# as roots the leak scan is stricter, never weaker.
ASAN_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:use_stacks=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
asan: deps
	$(MAKE) -j2 B=$(B)/asan BIN=$(B)/asan/bin OPT="$(ASAN)" LDFLAGS="-fsanitize=address,undefined" \
	  $(B)/asan/bin/dvsim $(B)/asan/check_dvsim
	$(ASAN_ENV) DVSIM_ROOT=$(CURDIR) DVSIM=$(abspath $(B)/asan/bin/dvsim) $(B)/asan/check_dvsim
	$(ASAN_ENV) DVSIM=$(B)/asan/bin/dvsim B=$(B)/asan sh tests/golden.sh

bench: deps
	$(MAKE) -j2 all
	sh bench/run.sh

# The fidelity suite (bench/calibration.def, bench/roofline.def): runs in a pool of worker processes.
$(B)/validate: $(B)/bench/validate.o $(B)/bench/fidelity.o $(OPS_OBJS) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(LIBS)
validate: deps
	$(MAKE) -j2 all $(B)/validate
	$(B)/validate --doc docs/FIDELITY.md

clean:
	rm -rf $(B) $(BIN)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
