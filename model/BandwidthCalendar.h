// model/BandwidthCalendar.h - a shared bandwidth resource as a calendar of time bins.
//
// Each bin of `window` cycles carries at most bytes_per_cycle * window bytes.  A transfer reserves
// its bytes bin by bin from its start time.  Sharing is fair: in every bin a requester takes at
// most capacity / max(1, A x U), where A is the number of requesters active in the bins around its
// start and U the fraction of those bins' capacity in use (processor sharing among the requesters
// that actually contend), so the outcome barely depends on the order in which cores - which run
// ahead of each other by up to the quantum - happen to make their reservations.  Bins before
// the global time are retired, so memory stays bounded.
#pragma once
#include <cstdint>
#include <vector>

#include "Cycles.h"

namespace dv {

class BandwidthCalendar {
public:
    void configure(uint64_t bytes_per_cycle, uint64_t window);
    // Reserve `bytes` for `requester` (a core index) starting at cycle t; returns the cycle the
    // last byte is through.
    cycles_t reserve(cycles_t t, uint64_t bytes, unsigned requester);
    // Forget bins that end before cycle t (no reservation will start earlier).
    void retire(cycles_t t);
    void reset();

private:
    struct Bin {
        uint64_t used = 0;
        uint64_t who[2] = {0, 0}; // requesters seen in this bin (index mod 128)
    };
    Bin &bin_at(uint64_t bin);
    uint64_t share_near(uint64_t bin, unsigned requester);

    static constexpr uint64_t near_ = 16; // bins either side that count as "active around"
    uint64_t bpc_ = 1, window_ = 64, cap_ = 64;
    // Bins base_ .. base_ + count_ - 1 live in a power-of-two ring, bin b at ring_[b & mask_].
    Bin &slot(uint64_t bin) { return ring_[bin & mask_]; }
    uint64_t base_ = 0, count_ = 0, mask_ = 0;
    std::vector<Bin> ring_;
};

} // namespace dv
