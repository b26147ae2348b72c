/* bench/fidelity.c - the calibration and roofline tables as data, one operator run per process, and
 * the roofline verdicts (bench/fidelity.h). */
#include "fidelity.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dv/micro.h"
#include "dv/report.h"
#include "dv/sim.h"

const dv_fid_case_t dv_fid_cases[] = {
#define DV_CAL(id, profile, command, measured, mac, mte2, bvec, bmte2, bmte3, note) \
    {id, profile, command, measured, mac, mte2, bvec, bmte2, bmte3, note},
#include "calibration.def"
};
const int dv_fid_ncases = (int)(sizeof dv_fid_cases / sizeof dv_fid_cases[0]);

const dv_fid_roof_t dv_fid_roofs[] = {
#define DV_ROOF(id, profiles, kind, command, why) {id, profiles, DV_FID_##kind, command, why},
#include "roofline.def"
};
const int dv_fid_nroofs = (int)(sizeof dv_fid_roofs / sizeof dv_fid_roofs[0]);

bool dv_fid_roof_applies(const dv_fid_roof_t *r, const char *profile)
{
    if (!r->profiles[0])
        return true;
    for (const char *p = r->profiles; *p;) {
        const size_t n = strcspn(p, " ");
        if (n && strncmp(profile, p, n) == 0)
            return true;
        p += n;
        p += strspn(p, " ");
    }
    return false;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every microbenchmark row on `profile` with the --set overrides in sets[0..nsets): counts, and the
 * failed rows' names and details in msg. */
static int micro_here(const char *profile, char **sets, int nsets, dv_fid_run_t *out, dv_error_t *err)
{
    dv_profile_op_t pop[32] = {{DV_PROFILE_PRESET, profile}};
    if (nsets > 31)
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "too many --set overrides");
    for (int i = 0; i < nsets; i++) {
        pop[1 + i].kind = DV_PROFILE_SET;
        pop[1 + i].arg = sets[i];
    }
    int rc = dv_sim_profile(pop, 1 + nsets, &out->cfg, err);
    if (rc != DV_OK)
        return rc;
    dv_micro_result_t *res = calloc((size_t)dv_micro_count(), sizeof *res);
    if (!res)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    rc = dv_micro_run(&out->cfg, NULL, res, err);
    if (rc >= 0) {
        size_t n = 0;
        for (int i = 0; i < dv_micro_count(); i++) {
            const dv_micro_status_t st = res[i].status;
            if (st != DV_MICRO_NOT_RUN)
                out->micro[st]++;
            if (st == DV_MICRO_FAIL && n < sizeof out->msg)
                n += (size_t)snprintf(out->msg + n, sizeof out->msg - n, "%s%s (%s)", n ? "; " : "",
                                      dv_micro_spec(i)->name, res[i].detail);
        }
        rc = DV_OK;
    }
    free(res);
    return rc;
}

int dv_fid_run_here(const char *profile, const char *cmd, dv_fid_run_t *out)
{
    char buf[1024], *argv[64];
    int argc = 0;
    dv_error_t err = {0};
    dv_sim_result_t res;
    dv_report_t rep;
    const double t0 = now_s();

    memset(out, 0, sizeof *out);
    memset(&res, 0, sizeof res);
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *t = strtok(buf, " "); t && argc < 64; t = strtok(NULL, " "))
        argv[argc++] = t;
    if (argc == 0) {
        out->rc = dv_error_set(&err, DV_ERR_RANGE, NULL, 0, 0, "empty operator command");
        goto done;
    }
    if (strcmp(argv[0], DV_FID_MICRO) == 0) { /* "micro [--set K=V]..." */
        char *sets[32];
        int nsets = 0;
        for (int i = 1; i < argc; i++) {
            if (strcmp(argv[i], "--set") != 0 || i + 1 >= argc || nsets == 32) {
                out->rc = dv_error_set(&err, DV_ERR_PARSE, NULL, 0, 0, "micro takes only --set K=V, not '%s'", argv[i]);
                goto done;
            }
            sets[nsets++] = argv[++i];
        }
        out->rc = micro_here(profile, sets, nsets, out, &err);
        if (out->rc != DV_OK)
            snprintf(out->msg, sizeof out->msg, "%s", err.msg);
        out->host_s = now_s() - t0;
        return out->rc;
    }
    dv_profile_op_t pop = {DV_PROFILE_PRESET, profile};
    dv_sim_opts_t o;
    dv_sim_opts_default(&o);
    o.profile_ops = &pop;
    o.nprofile_ops = 1;
    o.op = argv[0];
    o.op_argc = argc - 1;
    o.op_argv = argv + 1;
    o.data = false;
    o.hazards = false;
    out->rc = dv_sim_execute(&o, &res, &err);
    if (out->rc == DV_OK) {
        out->rc = dv_report_derive(&rep, &res.cfg, &res.kernel->info, &res.cnt, &err);
        if (out->rc == DV_OK) {
            out->cycles = res.cnt.cycles;
            out->time_us = rep.time_us;
            memcpy(out->ratio, rep.ratio, sizeof out->ratio);
            out->cores_ran = rep.cores_ran;
            out->copies = res.cnt.op_count[DV_OP_copy_gm_to_ubuf];
            dv_report_free(&rep);
        }
        out->flops = res.plan.flops;
        out->bytes = res.plan.bytes;
    }
    out->cfg = res.cfg;
    dv_sim_result_free(&res);
done:
    snprintf(out->msg, sizeof out->msg, "%s", out->rc == DV_OK ? "" : err.msg);
    out->host_s = now_s() - t0;
    return out->rc;
}

pid_t dv_fid_start(const char *profile, const char *cmd, int *fd)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) { /* the child: run, send the whole result, leave without the parent's atexit work */
        close(p[0]);
        dv_fid_run_t r;
        dv_fid_run_here(profile, cmd, &r);
        const char *b = (const char *)&r;
        size_t left = sizeof r;
        while (left > 0) {
            const ssize_t n = write(p[1], b, left);
            if (n <= 0)
                _exit(2);
            b += n;
            left -= (size_t)n;
        }
        _exit(0);
    }
    close(p[1]);
    *fd = p[0];
    return pid;
}

int dv_fid_finish(pid_t pid, int fd, dv_fid_run_t *out)
{
    size_t got = 0;
    char *b = (char *)out;
    while (got < sizeof *out) {
        const ssize_t n = read(fd, b + got, sizeof *out - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (got != sizeof *out) {
        memset(out, 0, sizeof *out);
        out->rc = DV_ERR_STATE;
        if (WIFSIGNALED(status))
            snprintf(out->msg, sizeof out->msg, "the run's process died of signal %d", WTERMSIG(status));
        else
            snprintf(out->msg, sizeof out->msg, "the run's process exited with status %d and no result",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    return out->rc;
}

int dv_fid_run(const char *profile, const char *cmd, dv_fid_run_t *out)
{
    int fd;
    const pid_t pid = dv_fid_start(profile, cmd, &fd);
    if (pid < 0) {
        memset(out, 0, sizeof *out);
        snprintf(out->msg, sizeof out->msg, "fork: %s", strerror(errno));
        return out->rc = DV_ERR_IO;
    }
    return dv_fid_finish(pid, fd, out);
}

/* Cycles one core's MTE2 engine needs for a copy of `rows` bursts of `b` bytes (docs/MODEL.md):
 * issue + (per burst: overhead + its micro-ops) / per-core cap, for bursts of whole micro-ops. */
static double copy_engine_cycles(const dv_config_t *c, uint64_t rows, uint64_t b)
{
    const double uop = (double)c->mte2_uop_cycles * (double)c->gm_core_read_bytes_per_cycle;
    const double per_uop = uop > (double)c->gm_uop_bytes ? uop : (double)c->gm_uop_bytes;
    const double burst = (double)c->gm_burst_overhead_bytes + per_uop * (double)(b / c->gm_uop_bytes) +
                         (double)(b % c->gm_uop_bytes);
    return (double)c->mte2_issue_cycles + (double)rows * burst / (double)c->gm_core_read_bytes_per_cycle;
}

bool dv_fid_roof_judge(const dv_fid_roof_t *r, const dv_fid_run_t *run, double *bound, double *achieved,
                       char *why, size_t whylen)
{
    const dv_config_t *c = &run->cfg;
    const double hz = (double)c->chip_freq_mhz * 1e6, start = (double)(c->chip_kernel_start_cycles + c->chip_block_start_cycles);
    *bound = *achieved = 0;
    if (run->rc != DV_OK) {
        snprintf(why, whylen, "the run failed: %s", run->msg);
        return false;
    }
    switch (r->kind) {
    case DV_FID_CUBE: {
        const double macs = (double)(c->cube_m * c->cube_n * c->cube_k_f16);
        *bound = macs * 2.0 * (double)c->chip_ai_cores * hz / 1e12;
        *achieved = (double)run->flops / ((double)run->cycles / hz) / 1e12;
        const bool ok = *achieved >= 0.85 * *bound;
        snprintf(why, whylen, "%.1f TFLOP/s of the cube peak %.1f (%.1f%%, needs 85%%)", *achieved, *bound,
                 100.0 * *achieved / *bound);
        return ok;
    }
    case DV_FID_STREAM: {
        /* the slower of: HBM at its sustained rate for every byte (the tensor is larger than L2),
         * and the busiest core's engine moving its share of the copies (its --tile rows of fp16 columns) */
        uint64_t rows = 0, cols = 0;
        const char *t = strstr(r->cmd, "--tile ");
        if (!t || sscanf(t, "--tile %llux%llu", (unsigned long long *)&rows, (unsigned long long *)&cols) != 2 ||
            run->cores_ran == 0) {
            snprintf(why, whylen, "the row's command has no --tile RxC or no core ran");
            return false;
        }
        const double hbm = (double)dv_hbm_sustained_bytes_per_cycle(c);
        const double per_core_copies = (double)((run->copies + run->cores_ran - 1) / run->cores_ran);
        const double engine = per_core_copies * copy_engine_cycles(c, rows, cols * 2 /* fp16 */);
        const double mem = (double)run->bytes / hbm;
        const double cycles = start + (engine > mem ? engine : mem);
        *bound = (double)run->bytes / (cycles / hz) / 1e9;
        *achieved = (double)run->bytes / ((double)run->cycles / hz) / 1e9;
        const bool ok = *achieved >= 0.9 * *bound && *achieved <= 1.1 * *bound;
        snprintf(why, whylen, "%.1f GB/s of the %.1f the model allows (%s-bound; %.1f%%, needs 90-110%%)", *achieved,
                 *bound, engine > mem ? "per-core engine" : "HBM", 100.0 * *achieved / *bound);
        return ok;
    }
    case DV_FID_START: {
        *bound = 50.0;
        *achieved = 100.0 * start / (double)run->cycles;
        snprintf(why, whylen, "start overhead %.0f of %llu cycles (%.1f%%, needs at least 50%%)", start,
                 (unsigned long long)run->cycles, *achieved);
        return *achieved >= *bound;
    }
    }
    snprintf(why, whylen, "unknown kind");
    return false;
}
