// model/Cost.h - what an executor says about one instruction.
#pragma once
#include "Cycles.h"

namespace dv {

struct Cost {
    cycles_t occupy = 0;   // cycles the pipe is busy before it can start its next instruction
    cycles_t latency = 0;  // further cycles until the results are visible (completion)
    cycles_t conflict = 0; // of occupy: UB bank-conflict cycles
};

} // namespace dv
