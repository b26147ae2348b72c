// model/BandwidthCalendar.h - a shared bandwidth resource as a calendar of time bins.
// Each bin of `window` cycles can carry bytes_per_cycle * window bytes; a transfer reserves bytes
// from its start time onward, so concurrent users share the bandwidth and the aggregate never
// exceeds it.  Reservations may arrive slightly out of time order (cores run ahead by up to the
// quantum); bins before the global time are retired so memory stays bounded.
#pragma once
#include <cstdint>
#include <deque>

#include "Cycles.h"

namespace dv {

class BandwidthCalendar {
public:
    void configure(uint64_t bytes_per_cycle, uint64_t window);
    // Reserve `bytes` starting at cycle t; returns the cycle the last byte is through.
    cycles_t reserve(cycles_t t, uint64_t bytes);
    // Forget bins that end before cycle t (no reservation will start earlier).
    void retire(cycles_t t);
    void reset();

private:
    uint64_t bpc_ = 1, window_ = 64, cap_ = 64;
    uint64_t base_ = 0;           // index of bins_.front()
    std::deque<uint64_t> used_;   // bytes reserved per bin
};

} // namespace dv
