// model/Occupancy.h - occupancy of one local buffer: bytes holding data that is still to be read.
//
// A byte range is occupied from the cycle it is written until the last cycle it is read before
// being overwritten (data that is never read never counts).  The time average is exact.  The peak
// is measured in time buckets (at most kBuckets per run, bucket width a power of two that doubles
// as the run grows): it is the largest number of distinct bytes occupied at some point inside one
// bucket, which is exact while the run is shorter than kBuckets cycles and an upper bound after.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "Cycles.h"

namespace dv {

class Occupancy {
public:
    static constexpr unsigned kBuckets = 4096;

    void reset(cycles_t origin);
    void write(uint64_t lo, uint64_t hi, cycles_t t);
    void read(uint64_t lo, uint64_t hi, cycles_t t);
    // Close every open range at the end of the run and compute the figures.
    void finish();
    uint64_t peak_bytes() const { return peak_; }
    double byte_cycles() const { return byte_cycles_; }

private:
    struct Seg {
        uint64_t hi;
        cycles_t w, r;
        bool read;
    };
    void split(uint64_t at);
    void close(uint64_t lo, const Seg &s, cycles_t next_write);
    void emit(uint64_t b0, uint64_t b1, uint64_t bytes);
    uint64_t bucket(cycles_t t) const { return (t - origin_) >> shift_; }

    std::map<uint64_t, Seg> segs_;
    std::vector<int64_t> starts_, ends_;
    unsigned shift_ = 0;
    cycles_t origin_ = 0;
    double byte_cycles_ = 0;
    uint64_t peak_ = 0;
};

} // namespace dv
