/* tests/runner.c - the one Check runner: every module's suite, fork mode on. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* One suite per module (tests/check_<module>.c; .cpp for the model's C++ components), or per part
 * of a large module (tests/check_<module>_<part>.c).  Weak so a module's suite is picked up by
 * linking its file; the list below is the full set the project has. */
#define SUITES(X) X(intmath) X(isa) X(trace) X(trace_binary) X(config) X(semantics_numbers) X(semantics_vector) X(semantics_dma) \
    X(semantics_footprint) X(model) X(components) X(timing) X(robust) X(report) X(cli) X(kapi) X(kapi_emit) X(ops) \
    X(ops_elementwise) X(ops_norm) X(ops_matmul) X(ops_conv) X(acl) X(acl_config) X(aclnn_ops) X(aclnn_errors) X(aclnn_lists) X(aclnn_ew) X(aclnn_reduce) X(aclnn_random) X(aclnn_binmath) X(aclnn_loss) X(aclnn_unary) X(aclnn_fill) \
    X(micro) \
    X(aclnn_cmp) X(aclnn_foreach) X(aclnn_mm) X(aclnn_act) \
    X(fidelity) X(topology) X(graph) X(ops_layout) X(fold) X(fusion) X(acl_graph) X(stalls) X(sweep) X(plot) \
    X(ascendc) X(ascendc_vec) X(ascendc_cube) X(acl_binary) X(acl_capture) \
    X(ascendc_act) X(ascendc_norm) X(ascendc_math) X(ascendc_rsort) X(ascendc_xform) X(ascendc_mm) X(ascendc_mmb) \
    X(l2_policy) X(gm_paths) X(cube_pipe) X(ops_tiling) X(errband) X(native) \
    X(acl_rt2) X(aclnn_logic) X(aclnn_conv) X(aclnn_bcast) X(aclnn_ew2) X(aclnn_move) \
    X(aclnn_norm2) /* (s20-norm2) */ \
    X(calendar) /* (s29-cal) */
#define DECLARE(m) extern Suite *dv_##m##_suite(void) __attribute__((weak));
SUITES(DECLARE)

int main(void)
{
    setenv("DVSIM_QUIET", "1", 0); /* the suites provoke kernel failures on purpose: no stderr line each */
    SRunner *sr = srunner_create(NULL);
#define ADD(m) if (dv_##m##_suite) srunner_add_suite(sr, dv_##m##_suite());
    SUITES(ADD)
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
