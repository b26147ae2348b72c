// model/Buffer.h - one local buffer of a core (UB, L1, L0A, L0B, L0C, BT or FB): its capacity and
// alignment from the profile, its bytes (in runs with data) and its occupancy.  The SystemC name
// is the space's name ("ub", "l1", ...), so the module path reads chip.aiv3.ub.
#pragma once
#include <cstddef>
#include <cstdint>
#include <systemc>
#include <vector>

#include "Occupancy.h"
#include "dv/config.h"
#include "dv/isa.h"
#include "dv/model.h"
#include "dv/semantics.h"

namespace dv {

class Buffer : public sc_core::sc_module {
public:
    // Its capacity and base alignment: the profile's core.<space>_size_bytes and _align_bytes, as
    // the core topology reads them (dv_topo_buffer_size / dv_topo_buffer_align).
    Buffer(sc_core::sc_module_name name, dv_space_t space, uint64_t size_bytes, uint64_t align_bytes);

    ~Buffer() override;
    // A kernel starts: forget occupancy (keeping its series over time only when `series`, as
    // dv_run_opts_t.series asks); hold zeroed bytes when the run executes data (mapped, so that
    // pages a kernel never touches cost no host memory, and zeroed by giving the pages back).
    void begin_kernel(cycles_t origin, bool data, bool series);
    // The kernel ended `total` cycles after its launch (the run's cycles, which every core's work
    // ends by): close the occupancy intervals and report them, with the series over that time.
    void end_kernel(cycles_t total, dv_buf_counters_t &out);
    // Why an access to [lo, hi) is not allowed (base misaligned, past the end), or nullptr.  The
    // allowed access, every access of a valid kernel, is two compares here; why_not() writes the message.
    const char *check(uint64_t lo, uint64_t hi, char *why, size_t cap, uint64_t align = 0) const // 0: the buffer's
    {
        if (hi <= size_ && lo % (align ? align : align_) == 0)
            return nullptr;
        return why_not(lo, hi, why, cap, align);
    }
    // An instruction that runs from cycle start to cycle end read or wrote r: written bytes are
    // occupied from its start, read bytes are needed until its end.
    void access(const dv_range_t &r, cycles_t start, cycles_t end)
    {
        if (r.write)
            occ_.write(r.lo, r.hi, start);
        else
            occ_.read(r.lo, r.hi, end);
    }
    uint8_t *data() { return bytes_; }
    uint64_t size() const { return size_; }

private:
    const char *why_not(uint64_t lo, uint64_t hi, char *why, size_t cap, uint64_t align) const;

    const dv_space_t space_;
    const uint64_t size_, align_;
    uint8_t *bytes_ = nullptr; // size_ bytes of anonymous memory in runs with data, else nullptr
    Occupancy occ_;
};

} // namespace dv
