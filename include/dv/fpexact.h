/* dv/fpexact.h - fp32 arithmetic as the hardware does it: every result a single IEEE operation.
 *
 * The instruction semantics, the operators' plain-C references and the tests' references must
 * round alike, so a*b+c is never fused into an fma and float expressions are evaluated in float.
 * Include this header first in a file whose functions compute such results: the pragma applies to
 * the functions that follow it in the translation unit (GCC ignores the STDC pragma, so it gets its
 * own), and the build stops on a target that evaluates float in wider precision. */
#ifndef DV_FPEXACT_H
#define DV_FPEXACT_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif

#include <float.h>

#if FLT_EVAL_METHOD != 0
#error "dvsim needs FLT_EVAL_METHOD 0 (float arithmetic evaluated in float, e.g. SSE)"
#endif

#endif
