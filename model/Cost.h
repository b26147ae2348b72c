// model/Cost.h - what an executor says about one instruction.
#pragma once
#include "Cycles.h"

namespace dv {

struct Cost {
    cycles_t occupy = 0;   // cycles the pipe is busy before it can start its next instruction
    cycles_t latency = 0;  // further cycles until the results are visible (completion)
    cycles_t conflict = 0; // of occupy: UB bank-conflict cycles
    cycles_t mem_wait = 0; // of occupy: cycles a GM transfer waited for L2 / HBM beyond its engine's time
    bool mem_hbm = false;  // that wait ended with HBM (else with the L2), for stall attribution
};

} // namespace dv
