# dvsim - cycle-approximate simulator of the Da Vinci AI Core.
#
#   make          build $(BIN)/dvsim, the AscendCL shim and the generated docs (in $(B)/docs, $(B)/configs)
#   make demo     install missing packages, build, run the default job on the embedded 910B2 profile
#   make test     install missing packages, build, run every test
#   make docs     copy the generated docs over the committed ones (docs/ISA.md, configs/SCHEMA.md, ...)
#   make traces   rewrite the sample traces in traces/ from tools/gentrace.c
#   make bench    speed benchmark (prints figures; not a test)
#   make fusion-doc  the fusion study of every graph in graphs/ (prints figures; not a test): writes
#                 $(B)/docs/FUSION.md; UPDATE=1 copies it over docs/FUSION.md
#   make whatif-doc  the what-if studies of bench/whatif/ (prints figures; not a test): writes
#                 $(B)/docs/WHATIF.md and its plots; UPDATE=1 copies them over docs/
#   make validate fidelity suite: calibration cases vs measured, roofline checks, microbenchmarks (prints figures;
#                 not a test).  Writes $(B)/docs/FIDELITY.md (docs/FIDELITY.md with its generated section
#                 replaced) and $(B)/bench/residuals.def (the residuals behind every report's error band) and
#                 says whether they differ from the committed ones; UPDATE=1 copies them over.
#   make asan     every test again on an AddressSanitizer + UBSan build (build/asan)
#   make fuzz     each libFuzzer target for FUZZ_SECONDS (default 60) under ASan + UBSan (build/fuzz)
#   make install PREFIX=DIR   the AscendCL shim laid out like a CANN install: DIR/include, DIR/lib
#                 (libascendcl.so, libnnopbase.so, libopapi.so; lib64 -> lib), DIR/lib/dvsim (the model
#                 plugin), DIR/lib/pkgconfig, DIR/bin/dvsim; and Ascend C: DIR/bin/dvcc (the compiler
#                 driver), DIR/include/ascendc, DIR/lib/cmake/ASC (find_package(ASC)), DIR/set_env.sh
#
# Generated files.  A build never writes into the source tree: every generator writes under $(B)/.
# The generated files that are committed (so they can be read without building) are refreshed only
# by an explicit command, named in their banner (tools/banner.h): `make docs` for the reference docs,
# `make traces` for the sample traces, `make validate UPDATE=1` for docs/FIDELITY.md's generated
# section and bench/residuals.def.  make test fails with a one-line hint when a committed doc or
# trace differs from what its generator writes now (tests/generated.sh, tests/golden.sh).
# docs/FIDELITY.md and bench/residuals.def are the exception: they take minutes of simulation (make
# validate), too long for make test, so they are compared only by make validate.  Rerun make validate
# when a change may move the model's figures.
#
# The shim boundary.  The shared libraries are built with hidden visibility: libascendcl.so exports
# the AscendCL, aclnn and aclprof functions of include/acl, include/aclnn, include/aclnnop, dvsim's
# of include/dvsim and the kernel API of dv/kapi.h (tests/exports.sh).  It does not link SystemC:
# the model is a private plugin, lib/dvsim/libdvsim_model.so, which it loads with dlopen on the
# first kernel (acl/model_plugin.h says why and how).  Executables link the model directly.

CC      ?= gcc
CXX     ?= g++
PKGS    := libsystemc-dev libyaml-dev check pkg-config python3 python3-numpy
PKGS    += cmake
B       ?= build
BIN     ?= bin
WARN    := -Wall -Wextra -Werror
OPT     ?= -O2 -g
# The simulation's hot path - the model, the trace readers and the ISA's checks and geometry - at
# -O3 (about 4% fewer host instructions per simulated instruction than -O2, issue 17), and for
# bin/dvsim optimised again across files at link time (HOT_LINK, about 5% more: the model calls
# the ISA's C functions per instruction).  The objects carry both forms (-ffat-lto-objects), so
# every other program and library links them as usual.  A build that sets OPT on the command line
# (the sanitizer and fuzz builds) sets it for every file, without link-time optimisation.
HOT_OPT := -O3 -g -flto=auto -ffat-lto-objects
HOT_LINK := $(if $(filter command line,$(origin OPT)),,-flto=auto -O3 -g)
CPPFLAGS += -Iinclude -Iisa -Iconfigs -Iops -Itools -I$(B) -I$(B)/include
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN)
CXXFLAGS += -std=c++17 $(OPT) $(WARN)
PKGCONF := $(shell command -v pkg-config 2>/dev/null)
SC_CFLAGS := $(if $(PKGCONF),$(shell pkg-config --cflags systemc 2>/dev/null))
SC_LIBS   := $(if $(PKGCONF),$(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)
YAML_LIBS := $(if $(PKGCONF),$(shell pkg-config --libs yaml-0.1 2>/dev/null),-lyaml)
CHECK_LIBS := $(if $(PKGCONF),$(shell pkg-config --libs check 2>/dev/null),-lcheck)
LIBS    := $(SC_LIBS) $(YAML_LIBS) -lm -lpthread

# Sources, by where they go.
#   CORE   the simulator's C modules: base/, isa/, configs/, kernel/, ops/, fusion/, whatif/, sim/ (but the program's main)
#   ACL    the AscendCL shim (acl/)
#   MODEL  the SystemC model (model/*.cpp); SC_MAIN the sc_main SystemC requires
#   DOC    the doc generators; BENCH the microbenchmarks (bench/micro*.c)
# Executables link all of them from $(B)/libdv.a (each takes what it calls) plus SC_MAIN.
# libascendcl.so has CORE, ACL and the model loader; the model plugin has MODEL, SC_MAIN, the
# plugin's table and the CORE modules the model calls.  Neither has DOC or BENCH.
DOC_SRCS   := isa/doc.c configs/doc.c ops/doc.c acl/doc.c
BENCH_SRCS := $(wildcard bench/micro*.c)
CORE_SRCS  := $(filter-out $(DOC_SRCS),$(wildcard base/*.c isa/*.c configs/*.c kernel/*.c ops/*.c fusion/*.c whatif/*.c) \
                $(filter-out sim/main.c,$(wildcard sim/*.c)))
LOADER_SRC := acl/model_loader.c
PLUGIN_SRC := acl/model_plugin.c
ACL_SRCS   := $(filter-out acl/alias.c $(DOC_SRCS) $(LOADER_SRC) $(PLUGIN_SRC),$(wildcard acl/*.c))
MODEL_SRCS := $(wildcard model/*.cpp)
SC_MAIN    := $(B)/model/sc_main.o
GEN_C    := $(B)/profiles_embedded.c
GEN_PRESETS := $(B)/presets_table.c
GEN_H    := $(B)/include/dv/kapi_insn.h
# Internal (not installed): the same functions written into the stream's buffer (kernel/kapi_emit.h).
GEN_KH   := $(B)/kernel/kapi_emit_insn.h
# The aclnn operator headers (acl/nnops.def -> $(B)/include/aclnnop/aclnn_<op>.h; the stamp stands for them).
ACLNN_H  := $(B)/include/aclnnop/.stamp
LIB_OBJS := $(patsubst %.c,$(B)/%.o,$(CORE_SRCS) $(ACL_SRCS) $(DOC_SRCS) $(BENCH_SRCS)) $(MODEL_SRCS:%.cpp=$(B)/%.o) \
            $(GEN_C:%.c=%.o) $(GEN_PRESETS:%.c=%.o)
TEST_SRCS := $(wildcard tests/check_*.c) tests/runner.c $(wildcard tests/support/*.c) bench/fidelity.c ascendc/native.c
TEST_OBJS := $(TEST_SRCS:%.c=$(B)/%.o) $(patsubst %.cpp,$(B)/%.o,$(wildcard tests/check_*.cpp))
PROFILES := $(wildcard configs/*.yaml)

# The committed generated docs: each is written to $(B)/<same path> by `make`, copied by `make docs`.
# TABLE_DOCS come from the tables (tools/gendoc.c); docs/ERRORS.md from the error-reporting calls.
TABLE_DOCS := docs/ISA.md configs/SCHEMA.md docs/OPS.md docs/OP_SUMMARY.md docs/MICRO.md docs/ACLNN.md
DOCS := $(TABLE_DOCS) docs/ERRORS.md
GEN_DOCS := $(DOCS:%=$(B)/%)
TRACES := $(wildcard traces/*.trace)

.PHONY: all deps demo test bench validate fusion-doc whatif-doc asan fuzz clean docs traces install shim
all: $(BIN)/dvsim $(BIN)/dvcc $(GEN_DOCS) shim

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
$(B)/model/%.o $(B)/pic/model/%.o $(B)/kernel/%.o $(B)/pic/kernel/%.o $(B)/isa/%.o $(B)/pic/isa/%.o: OPT = $(HOT_OPT)
$(B)/%.o: %.c | $(B)/dirs $(GEN_H) $(GEN_KH) $(ACLNN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@
$(B)/%.o: %.cpp | $(B)/dirs $(GEN_H) $(GEN_KH) $(ACLNN_H)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(SC_CFLAGS) $(CXXFLAGS) -MMD -MP -c $< -o $@
$(B)/dirs:
	@mkdir -p $(B)/base $(B)/bench $(B)/isa $(B)/configs $(B)/model $(B)/kernel $(B)/ops $(B)/fusion $(B)/whatif $(B)/sim $(B)/acl $(B)/tests/support $(B)/tools \
	  $(B)/include/dv $(B)/lib/dvsim $(B)/docs $(B)/traces $(BIN)
	@touch $@

# Built-in profiles: the YAML files compiled in, so dvsim runs with no files at all.
$(B)/tools/embed: tools/embed.c tools/banner.h | $(B)/dirs
	$(CC) $(CFLAGS) $< -o $@
$(GEN_C): $(B)/tools/embed $(PROFILES)
	$(B)/tools/embed $(PROFILES) > $@.tmp && mv $@.tmp $@
# The same profiles as the loader reads them (dv_config_t initialisers): a preset is copied, not parsed.
GENPRESET_SRCS := tools/genpreset.c configs/config.c base/yamldoc.c base/error.c base/file.c
$(B)/tools/genpreset: $(GENPRESET_SRCS) $(GEN_C) tools/banner.h configs/params.def include/dv/config.h | $(B)/dirs
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(GENPRESET_SRCS) $(GEN_C) -o $@ $(YAML_LIBS)
$(GEN_PRESETS): $(B)/tools/genpreset
	$(B)/tools/genpreset > $@.tmp && mv $@.tmp $@
# The kernel API's instruction functions: one dvk_<mnemonic> per row of isa/isa.def.
$(B)/tools/genkapi: tools/genkapi.c tools/banner.h isa/isa.c base/error.c isa/isa.def isa/fields.def | $(B)/dirs
	$(CC) $(CPPFLAGS) $(CFLAGS) tools/genkapi.c isa/isa.c base/error.c -o $@
$(GEN_H): $(B)/tools/genkapi
	@mkdir -p $(dir $@)
	$(B)/tools/genkapi > $@.tmp && mv $@.tmp $@
$(GEN_KH): $(B)/tools/genkapi
	@mkdir -p $(dir $@)
	$(B)/tools/genkapi emit > $@.tmp && mv $@.tmp $@

# The aclnn operator headers: one per header of acl/nnops.def (a file is rewritten only when it changes).
$(B)/tools/genaclnn: tools/genaclnn.c tools/banner.h acl/nnops.def | $(B)/dirs
	$(CC) $(CFLAGS) -Itools $< -o $@
# aclnn_util.h is copied beside them, since they include it by the quoted name, as CANN's do (with its
# time: a new copy at every regeneration would make every object that includes it out of date only
# for the next make, since this rule does not declare the copy).
$(ACLNN_H): $(B)/tools/genaclnn include/aclnnop/aclnn_util.h
	@mkdir -p $(dir $@)
	$(B)/tools/genaclnn $(dir $@) && cp -p include/aclnnop/aclnn_util.h $(dir $@) && touch $@

$(B)/profiles_embedded.o: $(GEN_C)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
$(B)/presets_table.o: $(GEN_PRESETS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libdv.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# The operators are linked as objects: the registry (ops/op.c) refers to them weakly.
OPS_OBJS := $(patsubst %.c,$(B)/%.o,$(filter-out $(DOC_SRCS),$(wildcard ops/*.c)))

$(BIN)/dvsim: $(B)/sim/main.o $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $(HOT_LINK) $^ -o $@ $(LIBS)

# dvcc, the Ascend C compiler driver (ascendc/dvcc.c), with the native-code count (ascendc/native.c).
$(BIN)/dvcc: ascendc/dvcc.c ascendc/native.c ascendc/native.h | $(B)/dirs
	$(CC) $(CFLAGS) $(LDFLAGS) ascendc/dvcc.c ascendc/native.c -o $@

# ---- the AscendCL shim: libascendcl.so with the whole shim but the model, the two other names
# CANN programs link (-lnnopbase -lopapi) as empty libraries that depend on it, and the model
# plugin lib/dvsim/libdvsim_model.so that it loads (acl/model_plugin.h) ----
# Hidden visibility; FUNC_VISIBILITY makes ACL_FUNC_VISIBILITY export the API (acl/acl_base.h).
SHLIB_CFLAGS := -fPIC -fvisibility=hidden -DFUNC_VISIBILITY
CORE_PIC := $(CORE_SRCS:%.c=$(B)/pic/%.o)
SHIM_OBJS := $(CORE_PIC) $(patsubst %.c,$(B)/pic/%.o,$(ACL_SRCS) $(LOADER_SRC)) $(B)/pic/profiles_embedded.o \
             $(B)/pic/presets_table.o
PLUGIN := $(B)/lib/dvsim/libdvsim_model.so
PLUGIN_OBJS := $(MODEL_SRCS:%.cpp=$(B)/pic/%.o) $(B)/pic/model/sc_main.o $(B)/pic/$(PLUGIN_SRC:.c=.o)
SHIM_LIBS := $(B)/lib/libascendcl.so $(B)/lib/libnnopbase.so $(B)/lib/libopapi.so
$(B)/pic/%.o: %.c | $(B)/dirs $(GEN_H) $(GEN_KH) $(ACLNN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SHLIB_CFLAGS) -MMD -MP -c $< -o $@
$(B)/pic/%.o: %.cpp | $(B)/dirs $(GEN_H) $(GEN_KH) $(ACLNN_H)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS) $(SC_CFLAGS) $(CXXFLAGS) $(SHLIB_CFLAGS) -MMD -MP -c $< -o $@
$(B)/pic/profiles_embedded.o: $(GEN_C)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SHLIB_CFLAGS) -c $< -o $@
$(B)/pic/presets_table.o: $(GEN_PRESETS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(SHLIB_CFLAGS) -c $< -o $@
# The kernel API (dv/kapi.h, the functions that kernels launched with dvsimLaunchKernel call) is
# exported whole: kernel/kapi.c defines nothing else (tests/exports.sh checks).
$(B)/pic/kernel/kapi.o: SHLIB_CFLAGS := -fPIC -DFUNC_VISIBILITY
# The CORE modules as an archive: the plugin takes from it only what the model calls.
$(B)/pic/libcore.a: $(CORE_PIC)
	rm -f $@ && ar rcs $@ $^
$(B)/lib/libascendcl.so: $(SHIM_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libascendcl.so -Wl,--no-undefined $(LDFLAGS) $^ -o $@ $(YAML_LIBS) -lm -lpthread -ldl
$(B)/lib/libnnopbase.so $(B)/lib/libopapi.so: acl/alias.c $(B)/lib/libascendcl.so
	$(CC) $(CFLAGS) $(SHLIB_CFLAGS) -shared -Wl,-soname,$(notdir $@) -DDV_ALIAS_OF='"$(notdir $@)"' acl/alias.c -o $@ \
	  -L$(B)/lib -Wl,--no-as-needed -lascendcl -Wl,-rpath,'$$ORIGIN'
# The plugin exports its entry (DV_MODEL_PLUGIN_SYMBOL) and sc_main; the version script also hides
# the instances of std:: templates that hidden visibility leaves visible.
$(B)/pic/model_plugin.map: acl/model_plugin.h | $(B)/dirs
	@mkdir -p $(dir $@)
	printf '{\n  global: %s; sc_main;\n  local: *;\n};\n' \
	  "$$(sed -n 's/^#define DV_MODEL_PLUGIN_SYMBOL "\(.*\)"/\1/p' acl/model_plugin.h)" > $@
$(PLUGIN): $(PLUGIN_OBJS) $(B)/pic/libcore.a $(B)/pic/model_plugin.map
	@mkdir -p $(dir $@)
	$(CXX) -shared -Wl,-soname,libdvsim_model.so -Wl,--no-undefined -Wl,--version-script=$(B)/pic/model_plugin.map \
	  $(LDFLAGS) $(PLUGIN_OBJS) $(B)/pic/libcore.a -o $@ $(SC_LIBS) -lm -lpthread
shim: $(SHIM_LIBS) $(PLUGIN)

PREFIX ?= /usr/local
DEV_HEADERS := $(wildcard include/dv/*.h) include/dv/stall.def isa/isa.def isa/fields.def configs/params.def configs/topology.def
install: shim $(BIN)/dvsim $(BIN)/dvcc $(ACLNN_H)
	mkdir -p $(PREFIX)/include/dv $(PREFIX)/include/ascendc $(PREFIX)/lib/dvsim $(PREFIX)/lib/pkgconfig \
	  $(PREFIX)/lib/cmake/ASC $(PREFIX)/bin
	cp -R include/acl include/aclnn include/aclnnop include/dvsim $(PREFIX)/include/
	cp $(dir $(ACLNN_H))aclnn_*.h $(PREFIX)/include/aclnnop/
	cp $(DEV_HEADERS) $(GEN_H) $(PREFIX)/include/dv/
	cp $(SHIM_LIBS) $(PREFIX)/lib/
	cp $(PLUGIN) $(PREFIX)/lib/dvsim/
	ln -sfn lib $(PREFIX)/lib64
	cp $(BIN)/dvsim $(BIN)/dvcc $(PREFIX)/bin/
	$(if $(wildcard include/ascendc),rm -rf $(PREFIX)/include/ascendc && cp -R include/ascendc $(PREFIX)/include/)
	cp include/ascendc/securec.h $(PREFIX)/include/securec.h # issue 19 (rt): host code includes it from the top
	cp ascendc/cmake/* $(PREFIX)/lib/cmake/ASC/
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|g' ascendc/set_env.sh.in > $(PREFIX)/set_env.sh
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@VERSION@|'"$$(sed -n 's/.*DV_SIM_VERSION "\(.*\)"/\1/p' include/dv/sim.h)"'|' \
	  acl/ascendcl.pc.in > $(PREFIX)/lib/pkgconfig/ascendcl.pc

# ---- generated documentation (from the tables; never edit by hand) ----
# Written to $(B)/<path> by every build; `make docs` copies those that changed over the committed
# copies (each names its source in its banner), and make test fails while one differs.
$(B)/tools/gendoc: tools/gendoc.c $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a
	$(CXX) $(CPPFLAGS) -x c -std=c11 $(WARN) -c tools/gendoc.c -o $(B)/tools/gendoc.o
	$(CXX) $(LDFLAGS) $(B)/tools/gendoc.o $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a -o $@ $(LIBS)
$(B)/docs/ISA.md: GENDOC := isa
$(B)/configs/SCHEMA.md: GENDOC := schema
$(B)/docs/OPS.md: GENDOC := ops
$(B)/docs/OP_SUMMARY.md: GENDOC := opsummary
$(B)/docs/MICRO.md: GENDOC := micro
$(B)/docs/ACLNN.md: GENDOC := aclnn
$(TABLE_DOCS:%=$(B)/%): $(B)/tools/gendoc
	@mkdir -p $(dir $@)
	$(B)/tools/gendoc $(GENDOC) > $@.tmp && mv $@.tmp $@
# The error catalogue: every message of the sources, with its code and the test that checks it.
ERR_SRCS := $(sort $(wildcard acl/*.c base/*.c configs/*.c fusion/*.c isa/*.c kernel/*.c model/*.cpp ops/*.c \
	sim/*.c whatif/*.c ascendc/*.c) $(shell find include/ascendc -name '*.h'))
ERR_TESTS := $(sort $(wildcard tests/*.c tests/*.cpp tests/*.sh tests/support/*.c tests/golden/*))
$(B)/tools/generrors: tools/generrors.c tools/banner.h | $(B)/dirs
	$(CC) $(CFLAGS) -Itools $< -o $@
$(B)/docs/ERRORS.md: $(B)/tools/generrors $(ERR_SRCS) $(ERR_TESTS)
	@mkdir -p $(dir $@)
	@echo "generrors > $@"; $(B)/tools/generrors $(ERR_SRCS) --tests $(ERR_TESTS) > $@.tmp && mv $@.tmp $@
docs: $(GEN_DOCS)
	@for f in $(DOCS); do cmp -s $(B)/$$f $$f || { cp $(B)/$$f $$f && echo "make docs: updated $$f"; }; done

# The sample traces (tests/golden.sh checks the committed ones against the generator).
$(B)/tools/gentrace: tools/gentrace.c tools/banner.h | $(B)/dirs
	$(CC) $(CFLAGS) $< -o $@
$(B)/traces/%.trace: $(B)/tools/gentrace
	@mkdir -p $(dir $@)
	$(B)/tools/gentrace $* > $@.tmp && mv $@.tmp $@
traces: $(TRACES:%=$(B)/%)
	@for f in $(TRACES); do cmp -s $(B)/$$f $$f || { cp $(B)/$$f $$f && echo "make traces: updated $$f"; }; done

# ---- quick start ----
demo: deps
	$(MAKE) -j2 all
	$(BIN)/dvsim run traces/vadd_double_buffer.trace

$(B)/check_dvsim: $(TEST_OBJS) $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(CHECK_LIBS) $(LIBS)

test: deps
	$(MAKE) -j2 all $(B)/check_dvsim
	$(MAKE) install PREFIX=$(B)/install
	DVSIM_ROOT=$(CURDIR) DVSIM_BUILD=$(abspath $(B)) DVSIM=$(abspath $(BIN)/dvsim) $(B)/check_dvsim
	DVSIM=$(abspath $(BIN)/dvsim) B=$(B) sh tests/golden.sh
	MAKE="$(MAKE)" B=$(B) sh tests/generated.sh $(DOCS)
	PREFIX=$(abspath $(B)/install) B=$(B) sh tests/examples.sh
	PREFIX=$(abspath $(B)/install) sh tests/exports.sh
	PREFIX=$(abspath $(B)/install) B=$(B) sh tests/ascendc.sh

ASAN := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer
# use_stacks=0: LeakSanitizer's second pass (after suppressions) can read the guard pages of the
# stack it has registered for the main thread, a SystemC coroutine stack, and crash.  Without stacks
# as roots the leak scan is stricter, never weaker.
# Sanitised code runs several times slower, and each forked test's leak check scans the heap it
# inherited: Check's per-test timeouts are stretched (CK_TIMEOUT_MULTIPLIER), nothing else changes.
ASAN_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:use_stacks=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 CK_TIMEOUT_MULTIPLIER=10
asan: deps
	$(MAKE) -j2 B=$(B)/asan BIN=$(B)/asan/bin OPT="$(ASAN)" LDFLAGS="-fsanitize=address,undefined" \
	  $(B)/asan/bin/dvsim $(B)/asan/check_dvsim
	$(ASAN_ENV) DVSIM_ROOT=$(CURDIR) DVSIM_BUILD=$(abspath $(B)/asan) DVSIM=$(abspath $(B)/asan/bin/dvsim) $(B)/asan/check_dvsim
	$(ASAN_ENV) DVSIM=$(B)/asan/bin/dvsim B=$(B)/asan sh tests/golden.sh
	$(MAKE) -j2 B=$(B)/asan BIN=$(B)/asan/bin OPT="$(ASAN)" LDFLAGS="-fsanitize=address,undefined" shim
	$(CC) $(ASAN) -Iinclude tests/asan_shim.c -L$(B)/asan/lib -Wl,--no-as-needed -lascendcl -lnnopbase -lopapi \
	  -Wl,-rpath,$(abspath $(B)/asan/lib) -fsanitize=address,undefined -o $(B)/asan/asan_shim
	ASAN_OPTIONS=detect_odr_violation=2 $(ASAN_ENV) $(B)/asan/asan_shim

# ---- fuzzing (issue 18): one libFuzzer target per input path, tests/fuzz/fuzz_NAME.c, each run for
# FUZZ_SECONDS under ASan + UBSan from a corpus seeded with the shipped files (tests/fuzz/run.sh);
# the library is built again with clang and coverage in $(B)/fuzz.  A crash, a leak, a run over 10 s
# or over 2 GB stops the target with its input saved (tests/fuzz/README.md).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OPT := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LD := -fsanitize=fuzzer,address,undefined
fuzz: PKGS += clang libclang-rt-14-dev
fuzz: deps
	$(MAKE) -j2 B=$(B)/fuzz BIN=$(B)/fuzz/bin CC=clang CXX=clang++ OPT="$(FUZZ_OPT)" WARN="-Wall -Wextra" \
	  $(B)/fuzz/libdv.a $(B)/fuzz/model/sc_main.o $(patsubst $(B)/%,$(B)/fuzz/%,$(OPS_OBJS))
	for t in $(FUZZ_TARGETS); do \
	  clang -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_OPT) -Iinclude -Iisa -Iconfigs -Iops -Itests/fuzz -I$(B)/fuzz -I$(B)/fuzz/include \
	    -c tests/fuzz/fuzz_$$t.c -o $(B)/fuzz/fuzz_$$t.o && \
	  clang++ $(FUZZ_LD) $(B)/fuzz/fuzz_$$t.o $(patsubst $(B)/%,$(B)/fuzz/%,$(OPS_OBJS)) $(B)/fuzz/model/sc_main.o \
	    $(B)/fuzz/libdv.a -o $(B)/fuzz/fuzz_$$t $(LIBS) || exit 1; \
	done
	sh tests/fuzz/run.sh $(B)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# make bench also installs valgrind: callgrind's instruction counts are its noise-free speed figure.
bench: PKGS += valgrind
bench: deps
	$(MAKE) -j2 all
	sh bench/run.sh

# The fidelity suite (bench/calibration.def, bench/roofline.def): runs in a pool of worker processes.
# It writes $(B)/docs/FIDELITY.md: the committed docs/FIDELITY.md with the generated section
# replaced; UPDATE=1 copies it over docs/FIDELITY.md.  The exit status is the suite's.
$(B)/validate: $(B)/bench/validate.o $(B)/bench/fidelity.o $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(LIBS)
# The fusion study's doc (docs/FUSION.md): every shipped graph on the 910B2 and the 310, with data but
# for FUSION_NODATA (their data runs would take hours).  Writes $(B)/docs/FUSION.md; UPDATE=1 copies
# it over docs/FUSION.md.  Minutes of simulation: not part of make test.
FUSION_GRAPHS := $(sort $(wildcard graphs/*.yaml))
FUSION_NODATA := graphs/matmul_gelu_8192.yaml
$(B)/fusiondoc: $(B)/bench/fusiondoc.o $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(LIBS)
fusion-doc: deps
	$(MAKE) -j2 all $(B)/fusiondoc
	@mkdir -p $(B)/docs
	$(B)/fusiondoc $(B)/docs/FUSION.md $(filter-out $(FUSION_NODATA),$(FUSION_GRAPHS)) \
	  $(foreach g,$(filter $(FUSION_NODATA),$(FUSION_GRAPHS)),--no-data $(g))
	@if [ -n "$(UPDATE)" ]; then cp $(B)/docs/FUSION.md docs/FUSION.md && echo "docs/FUSION.md updated"; \
	elif cmp -s $(B)/docs/FUSION.md docs/FUSION.md; then echo "docs/FUSION.md is up to date"; \
	else echo "$(B)/docs/FUSION.md differs from docs/FUSION.md (make fusion-doc UPDATE=1 copies it)"; fi

# The what-if studies' doc (docs/WHATIF.md and its plots in docs/whatif/): the sweeps of
# bench/whatif/*.yaml (run afresh in $(B)/whatif/), plotted and summarised by
# bench/whatifdoc.c into $(B)/docs; UPDATE=1 copies them over docs/.  Minutes: not part of make test.
$(B)/whatifdoc: $(B)/bench/whatifdoc.o $(OPS_OBJS) $(SC_MAIN) $(B)/libdv.a
	$(CXX) $(LDFLAGS) $^ -o $@ $(LIBS)
whatif-doc: deps
	$(MAKE) -j2 all $(B)/whatifdoc
	$(B)/whatifdoc $(B)/docs $(B)
	@if [ -n "$(UPDATE)" ]; then mkdir -p docs/whatif && cp $(B)/docs/WHATIF.md docs/WHATIF.md && \
	  cp $(B)/docs/whatif/*.svg docs/whatif/ && echo "docs/WHATIF.md and docs/whatif/ updated"; \
	elif cmp -s $(B)/docs/WHATIF.md docs/WHATIF.md; then echo "docs/WHATIF.md is up to date"; \
	else echo "$(B)/docs/WHATIF.md differs from docs/WHATIF.md (make whatif-doc UPDATE=1 copies it)"; fi

validate: deps
	$(MAKE) -j2 all $(B)/validate
	@mkdir -p $(B)/docs $(B)/bench && cp docs/FIDELITY.md $(B)/docs/FIDELITY.md
	@$(B)/validate --doc $(B)/docs/FIDELITY.md --residuals $(B)/bench/residuals.def; rc=$$?; \
	for f in docs/FIDELITY.md bench/residuals.def; do \
	if cmp -s $(B)/$$f $$f; then echo "validate: $$f is current"; \
	elif [ -n "$(UPDATE)" ]; then cp $(B)/$$f $$f && echo "validate: updated $$f"; \
	else echo "validate: $$f differs from $(B)/$$f: review the diff, then make validate UPDATE=1"; \
	fi; done; exit $$rc

clean:
	rm -rf $(B) $(BIN)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
