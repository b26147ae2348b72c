/* bench/fidelity.c - the calibration and roofline tables as data, operator runs (in this process or
 * in a pool of worker processes), and the roofline verdicts (bench/fidelity.h). */
#include "fidelity.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dv/errband.h"
#include "dv/intmath.h"
#include "dv/micro.h"
#include "dv/report.h"
#include "dv/sim.h"

const dv_fid_case_t dv_fid_cases[] = {
#define DV_CAL(id, profile, command, measured, mac, mte2, bvec, bmte2, bmte3, note) \
    {id, profile, command, 1, measured, mac, mte2, -1, bvec, bmte2, bmte3, note},
#define DV_CAL_SCALED(id, profile, command, scale, measured, mac, mte2, scalar, bvec, bmte2, bmte3, note) \
    {id, profile, command, scale, measured, mac, mte2, scalar, bvec, bmte2, bmte3, note},
#include "calibration.def"
};
const int dv_fid_ncases = (int)(sizeof dv_fid_cases / sizeof dv_fid_cases[0]);

const dv_fid_roof_t dv_fid_roofs[] = {
#define DV_ROOF(id, profiles, kind, command, why) {id, profiles, DV_FID_##kind, command, why},
#include "roofline.def"
};
const int dv_fid_nroofs = (int)(sizeof dv_fid_roofs / sizeof dv_fid_roofs[0]);

double dv_fid_case_time_us(const dv_fid_case_t *k, const dv_fid_run_t *r)
{
    if (k->scale <= 1)
        return r->time_us;
    const double head_us = (double)dv_kclass_start_cycles(&r->cfg) / (double)r->cfg.chip_freq_mhz;
    return head_us + (r->time_us - head_us) * k->scale;
}

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
    int kept = 1;
    for (int i = 1; i < argc; i++) { /* the run option --warm-up N; the rest are the operator's */
        if (strcmp(argv[i], "--warm-up") == 0 && i + 1 < argc) {
            o.warm_up = (unsigned)strtoul(argv[++i], NULL, 10);
            continue;
        }
        argv[kept++] = argv[i];
    }
    argc = kept;
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

/* ---------------------------------------------------------------- the worker pool */

/* A worker process: it reads job indices from `to` and writes each job's dv_fid_run_t to `from`. */
typedef struct worker {
    pid_t pid;      /* -1: none */
    int to, from;
    int job;        /* the job it runs, -1: idle */
} worker_t;

static bool io_all(int fd, void *buf, size_t n, bool writing)
{
    char *b = buf;
    while (n > 0) {
        const ssize_t k = writing ? write(fd, b, n) : read(fd, b, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        b += k;
        n -= (size_t)k;
    }
    return true;
}

/* The worker's loop (in the child): run each job it is sent, send its result, until the pipe closes. */
static void worker_main(const dv_fid_job_t *jobs, int to, int from)
{
    int j;
    while (io_all(to, &j, sizeof j, false)) {
        dv_fid_run_t r;
        dv_fid_run_here(jobs[j].profile, jobs[j].cmd, &r);
        if (!io_all(from, &r, sizeof r, true))
            _exit(2);
    }
    _exit(0);
}

/* Fork a worker; false when the pipes or the fork fail.  `others` are the live workers' parent ends,
 * closed in the child so that each worker sees EOF when the parent closes its pipe. */
static bool worker_start(worker_t *w, const dv_fid_job_t *jobs, const worker_t *others, int nothers)
{
    int to[2], from[2];
    if (pipe(to) != 0)
        return false;
    if (pipe(from) != 0) {
        close(to[0]);
        close(to[1]);
        return false;
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) { /* leave without the parent's atexit work */
        close(to[1]);
        close(from[0]);
        for (int i = 0; i < nothers; i++)
            if (others[i].pid > 0) {
                close(others[i].to);
                close(others[i].from);
            }
        worker_main(jobs, to[0], from[1]);
    }
    close(to[0]);
    close(from[1]);
    if (pid < 0) {
        close(to[1]);
        close(from[0]);
        return false;
    }
    *w = (worker_t){pid, to[1], from[0], -1};
    return true;
}

/* Close the worker's pipes and wait for it; its exit status in *status. */
static void worker_stop(worker_t *w, int *status)
{
    close(w->to);
    close(w->from);
    *status = 0;
    while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
        ;
    w->pid = -1;
}

static void worker_died(dv_fid_run_t *out, int status)
{
    memset(out, 0, sizeof *out);
    out->rc = DV_ERR_STATE;
    if (WIFSIGNALED(status))
        snprintf(out->msg, sizeof out->msg, "the run's process died of signal %d", WTERMSIG(status));
    else
        snprintf(out->msg, sizeof out->msg, "the run's process exited with status %d and no result",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

void dv_fid_run_all(dv_fid_job_t *jobs, int n, int par, void (*done)(const dv_fid_job_t *job, void *ctx), void *ctx)
{
    worker_t w[64];
    bool *finished = calloc((size_t)(n > 0 ? n : 1), sizeof *finished);
    int next = 0, reported = 0, busy = 0;
    if (!finished) {
        for (int i = 0; i < n; i++)
            if (!jobs[i].skip) {
                memset(&jobs[i].run, 0, sizeof jobs[i].run);
                jobs[i].run.rc = DV_ERR_NOMEM;
                snprintf(jobs[i].run.msg, sizeof jobs[i].run.msg, "out of memory");
            }
        return;
    }
    par = par < 1 ? 1 : par > 64 ? 64 : par;
    for (int i = 0; i < par; i++)
        w[i] = (worker_t){-1, -1, -1, -1};
    /* a worker that dies mid-run must not take the parent with it when it is sent its next job */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    for (;;) {
        /* hand out jobs to idle workers, starting workers as needed */
        for (int i = 0; i < par && next < n; i++) {
            while (next < n && jobs[next].skip)
                finished[next++] = true;
            if (next == n || w[i].job >= 0)
                continue;
            if (w[i].pid < 0 && !worker_start(&w[i], jobs, w, par)) {
                memset(&jobs[next].run, 0, sizeof jobs[next].run);
                jobs[next].run.rc = DV_ERR_IO;
                snprintf(jobs[next].run.msg, sizeof jobs[next].run.msg, "cannot start a worker process: %s",
                         strerror(errno));
                finished[next++] = true;
                continue;
            }
            if (!io_all(w[i].to, &next, sizeof next, true)) {
                int status;
                worker_stop(&w[i], &status);
                worker_died(&jobs[next].run, status);
                finished[next++] = true;
                continue;
            }
            w[i].job = next++;
            busy++;
        }
        while (next < n && jobs[next].skip)
            finished[next++] = true;
        /* report, in job order, every job finished so far */
        for (; reported < n && finished[reported]; reported++)
            if (done && !jobs[reported].skip)
                done(&jobs[reported], ctx);
        if (busy == 0)
            break;
        struct pollfd pfd[64];
        int who[64], np = 0;
        for (int i = 0; i < par; i++)
            if (w[i].job >= 0) {
                pfd[np] = (struct pollfd){.fd = w[i].from, .events = POLLIN};
                who[np++] = i;
            }
        if (poll(pfd, (nfds_t)np, -1) < 0)
            continue; /* EINTR */
        for (int k = 0; k < np; k++) {
            if (!pfd[k].revents)
                continue;
            worker_t *x = &w[who[k]];
            dv_fid_job_t *j = &jobs[x->job];
            if (!io_all(x->from, &j->run, sizeof j->run, false)) {
                int status;
                worker_stop(x, &status);
                worker_died(&j->run, status);
            }
            finished[x->job] = true;
            x->job = -1;
            busy--;
        }
    }
    for (int i = 0; i < par; i++)
        if (w[i].pid > 0) {
            int status;
            worker_stop(&w[i], &status);
        }
    signal(SIGPIPE, old_pipe);
    free(finished);
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
        const double per_core_copies = (double)dv_ceil_div(run->copies, run->cores_ran);
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
