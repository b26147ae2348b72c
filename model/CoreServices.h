// model/CoreServices.h - the contract between an AI core and the chip it sits on: every service an
// AiCore may ask of the chip, and nothing else.  Chip implements it; an AiCore holds a reference
// to this interface, never to Chip.
//
// Rules for both sides:
// - A core is named by its index (0 .. cores - 1, the `index` given to its constructor; it is also
//   the core's slot in dv_counters_t.cores).  The chip reads what it needs of that core through
//   AiCore's public accessors; no service touches the caller's queues, pipes, clocks or counters.
// - Services are called only from the core's own steps (AiCore::step) during Chip::run, between
//   begin_kernel and the core's last step.  None of them waits (advances time) or re-enters the
//   caller, with the one exception named at cross_set.
// - Times are cycles of the profile's clock in the chip's time base (the SystemC time of the
//   model, not relative to the launch); the chip turns them into launch-relative figures.
// - Everything the chip hands out (the stream, the GM arrays) stays valid until the kernel ends.
#pragma once
#include <cstdint>
#include <systemc>

#include "CriticalPath.h"
#include "Cycles.h"
#include "dv/isa.h"
#include "dv/kernel.h"
#include "dv/model.h"
#include "dv/semantics.h"

namespace dv {

class CoreServices {
public:
    virtual ~CoreServices() = default;

    // ---- blocks
    // The next block (and mix sub-stream) core `core` runs: the chip advances its dispatch state
    // and nothing else.  Called when the core is in step with SystemC time, so blocks go to cores
    // in simulated-time order.  False when the kernel has no block left for this core.
    virtual bool next_block(unsigned core, uint32_t &block, uint32_t &sub) = 0;
    // Open the instruction stream of (block, sub).  The caller owns *s and closes it; the chip
    // keeps no reference to it.
    virtual int open_stream(uint32_t block, uint32_t sub, dv_stream_t **s, dv_error_t *err) = 0;

    // ---- cross-core flags
    // Core `core` set cross-core flag `id` in `mode` (0: every core of its type, 1: the other AIVs
    // of its AI core, 2: AIC <-> its AIVs) at cycle t.  The chip keeps the pending sets and, when
    // the mode's rule is met, delivers the flag with its arrival time to the target cores through
    // AiCore::deliver_cross_flag - the caller may be one of them (mode 0), which is the only call
    // back into a core.  Returns an error (message without location: the caller adds it) for a
    // mode the core's type cannot use or a target that would hold more than sync.cross_flag_max
    // undelivered sets.  `node` is the set's critical-path node (its time is t; the chip takes
    // its own references and delivers the node of the set that completed the rule).
    virtual int cross_set(unsigned core, int mode, unsigned id, cycles_t t, CriticalPath::Ref node,
                          dv_error_t *err) = 0;

    // ---- failure
    // The first failure of the kernel wins (later ones are ignored): the chip records it, answers
    // aborting() == true from now on and resumes no core (AiCore::abandon ends each).  `err` is copied.
    virtual void fail(const dv_error_t &err) = 0;
    virtual bool aborting() const = 0;

    // ---- GM (read-only views of the kernel's arguments)
    // Fill the GM part of m (ngm, gm, gm_size); the buffer fields are the core's and untouched.
    virtual void gm_view(dv_mem_t &m) const = 0;
    virtual uint32_t gm_args() const = 0;
    // Bytes of argument a (0 when a does not exist), its name for messages, and the device
    // addresses of all arguments (indexed by argument; the L2 is indexed by them).
    virtual uint64_t gm_bytes(unsigned a) const = 0;
    virtual const char *gm_name(unsigned a) const = 0;
    virtual const uint64_t *gm_addrs() const = 0;

    // ---- shared memory time
    // Every core is at or after cycle t: bandwidth bins of the L2 and HBM calendars that end
    // before t are forgotten.  The caller passes the chip's current time (AiCore::step's now),
    // never its own (possibly later) local time.
    virtual void retire(cycles_t t) = 0;

    // ---- reports (append-only: they change no timing)
    // Pipe p of core `core` worked on `in` from cycle s to e (for the timeline, when one is wanted).
    virtual void slice(unsigned core, dv_pipe_t p, const dv_insn_t &in, cycles_t s, cycles_t e) = 0;
    // Whether this run wants slices at all (a core need not make calls that record nothing).
    virtual bool slicing() const = 0;
    // An unsynchronised access pair found in (block, sub) of core `core`; the chip fills h's core,
    // block and sub, counts it, and keeps the first DV_HAZARD_RECORDS.  false once the run has found
    // dv_run_opts_t.max_hazards: the core stops looking for more.
    virtual bool report_hazard(unsigned core, uint32_t block, uint32_t sub, const dv_hazard_t &h) = 0;
};

} // namespace dv
