/* ascendc/native.h - the native-code count of an Ascend C build (docs/KERNEL.md, the scalar cost rule,
 * rule 4): dvcc compiles a source to GNU x86-64 assembly, this module adds to every basic block that
 * holds instructions of the user's own source an increment of the translation unit's counter by that
 * number, and the kernel API charges the counter to the scalar unit. */
#ifndef DVCC_NATIVE_H
#define DVCC_NATIVE_H

#include <stddef.h>

/* The translation unit's counter: a local symbol the source defines (dvcc appends its definition). */
#define DVCC_NATIVE_SYM "dvcc_native_ops"

/* Rewrite the assembly text[0..n) that g++ wrote: each basic block of an executable section whose
 * instructions come (by their .loc) from a file that is not a library file (under lib_prefix, the
 * system's include directories, or a name in <>) starts by adding their number to DVCC_NATIVE_SYM.
 * Returns the new text (malloc'd, its length in *out_n) and the number of blocks instrumented in
 * *blocks; NULL, with why in why[0..why_n), when the text is not GCC's x86-64 output. */
char *dvcc_native_instrument(const char *text, size_t n, const char *lib_prefix, size_t *out_n, size_t *blocks,
                             char *why, size_t why_n);

#endif
