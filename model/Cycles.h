// model/Cycles.h - the one place where cycles meet SystemC time.
// Inside the model every time is a cycle count of the profile's clock; SystemC time runs at one
// nanosecond per cycle (the report converts cycles to microseconds with chip.freq_mhz).
#pragma once
#include <cstdint>
#include <systemc>

namespace dv {

using cycles_t = uint64_t;
constexpr cycles_t kNever = UINT64_MAX;

inline sc_core::sc_time to_time(cycles_t c) { return sc_core::sc_time(static_cast<double>(c), sc_core::SC_NS); }
inline cycles_t now_cycles() { return static_cast<cycles_t>(sc_core::sc_time_stamp().value() / 1000u); }

} // namespace dv
