/* whatif/sweep_run.c - step 2 of a sweep (dv/sweep.h): running the points.
 *
 * The parent process alone writes files.  It hands point indices to worker processes (fork; each
 * runs its points in-process through the driver: dv_sim_execute for an operator or a trace,
 * dv_fusion_study for a graph) over one pipe per worker, one point at a time so that long and short
 * points balance, and reads each result back over a second pipe as one line:
 *     POINT \t ok \t CELL \t CELL ...      the metric cells in dv_sweep_metrics order
 *     POINT \t error \t MESSAGE
 * Each finished row is appended to results.csv in one write(2) and its JSON twin to results.jsonl,
 * so a killed run leaves at most an incomplete last line, which the next run drops (sw_rows_read).
 * A worker that dies fails its point and is replaced. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dv/sim.h"
#include "sweep_internal.h"

/* ---------------------------------------------------------------- one point, in this process */

/* The point's profile as the driver's options: the base, then one --set per axis. */
typedef struct point_profile {
    dv_profile_op_t *ops;
    char (*set)[256];
    int n;
} point_profile_t;

static int profile_ops(const dv_sweep_t *s, uint64_t p, point_profile_t *pp, dv_error_t *err)
{
    pp->ops = calloc((size_t)s->naxes + 1, sizeof *pp->ops);
    pp->set = calloc((size_t)s->naxes + 1, sizeof *pp->set);
    if (!pp->ops || !pp->set)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    pp->ops[0].kind = s->profile_is_file ? DV_PROFILE_FILE : DV_PROFILE_PRESET;
    pp->ops[0].arg = s->profile;
    for (int a = 0; a < s->naxes; a++) {
        snprintf(pp->set[a], sizeof pp->set[a], "%s=%s", s->axis[a].key, dv_sweep_value(s, p, a));
        pp->ops[a + 1].kind = DV_PROFILE_SET;
        pp->ops[a + 1].arg = pp->set[a];
    }
    pp->n = s->naxes + 1;
    return DV_OK;
}

/* An operator or a trace: steps 1-4 of a run, timing only, then the report's derivation. */
static int run_kernel(const dv_sweep_workload_t *w, const point_profile_t *pp, dv_sweep_row_t *row, dv_error_t *err)
{
    dv_sim_opts_t o;
    dv_sim_result_t res;
    dv_report_t rep;
    dv_sim_opts_default(&o);
    o.profile_ops = pp->ops;
    o.nprofile_ops = pp->n;
    o.data = false;
    o.hazards = false;
    o.quiet = true;
    o.series = false; /* no metric reads the occupancy over time */
    if (w->kind == DV_SWEEP_OP) {
        o.op = w->argv[0];
        o.op_argc = w->argc - 1;
        o.op_argv = w->argv + 1;
    } else {
        o.trace = w->path;
    }
    int rc = dv_sim_execute(&o, &res, err);
    if (rc == DV_OK && (rc = dv_report_derive(&rep, &res.cfg, &res.kernel->info, &res.cnt, err)) == DV_OK) {
        sw_metrics_from_report(&rep, row);
        dv_report_free(&rep);
    }
    dv_sim_result_free(&res);
    return rc;
}

/* A graph: the fusion study, timing only. */
static int run_fusion(const dv_sweep_workload_t *w, const point_profile_t *pp, dv_sweep_row_t *row, dv_error_t *err)
{
    dv_config_t cfg;
    dv_fusion_study_opts_t o;
    dv_fusion_result_t *res = calloc(1, sizeof *res);
    int rc;
    if (!res)
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    dv_fusion_study_opts_default(&o);
    o.data = false;
    if ((rc = dv_sim_profile(pp->ops, pp->n, &cfg, err)) == DV_OK &&
        (rc = dv_fusion_study(w->priv, &cfg, &o, res, err)) == DV_OK)
        sw_metrics_from_fusion(res, row);
    free(res);
    return rc;
}

int dv_sweep_point_run(const dv_sweep_t *s, uint64_t p, dv_sweep_row_t *row, dv_error_t *err)
{
    point_profile_t pp = {0};
    dv_error_t e;
    char where[512];
    memset(&e, 0, sizeof e);
    if (p >= s->npoints)
        return dv_error_set(err, DV_ERR_RANGE, s->path, 0, 0, "point %llu: the sweep has %llu points",
                            (unsigned long long)p, (unsigned long long)s->npoints);
    const dv_sweep_workload_t *w = dv_sweep_point_workload(s, p);
    int rc = profile_ops(s, p, &pp, &e);
    if (rc == DV_OK)
        rc = w->kind == DV_SWEEP_FUSION ? run_fusion(w, &pp, row, &e) : run_kernel(w, &pp, row, &e);
    if (rc != DV_OK) {
        dv_sweep_describe(s, p, where, sizeof where);
        if (e.file[0] && e.line > 0)
            dv_error_set(err, rc, s->path, w->line, 0, "point %llu (%s): %s:%d: %s", (unsigned long long)p, where,
                         e.file, e.line, e.msg);
        else
            dv_error_set(err, rc, s->path, w->line, 0, "point %llu (%s): %s", (unsigned long long)p, where, e.msg);
    }
    free(pp.ops);
    free(pp.set);
    return rc;
}

/* ---------------------------------------------------------------- pipes */

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        const ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Bytes read from a pipe, split into lines. */
typedef struct linebuf {
    char *p;
    size_t n, cap;
} linebuf_t;

/* Read what the pipe has: 1 read something, 0 end of file, -1 error. */
static int lb_fill(linebuf_t *b, int fd)
{
    if (b->cap - b->n < 4096) {
        const size_t cap = b->cap ? b->cap * 2 : 8192;
        char *n = realloc(b->p, cap);
        if (!n)
            return -1;
        b->p = n;
        b->cap = cap;
    }
    ssize_t k;
    do
        k = read(fd, b->p + b->n, b->cap - b->n - 1);
    while (k < 0 && errno == EINTR);
    if (k <= 0)
        return (int)k;
    b->n += (size_t)k;
    return 1;
}

/* The next complete line (its newline replaced by NUL) into *line, or NULL; consumed by lb_drop. */
static char *lb_line(linebuf_t *b, size_t *used)
{
    char *nl = b->n ? memchr(b->p, '\n', b->n) : NULL;
    if (!nl)
        return NULL;
    *nl = '\0';
    *used = (size_t)(nl - b->p) + 1;
    return b->p;
}

static void lb_drop(linebuf_t *b, size_t used)
{
    memmove(b->p, b->p + used, b->n - used);
    b->n -= used;
}

/* ---------------------------------------------------------------- the worker */

/* Run the points the parent sends until it closes the pipe; never returns. */
static void worker_main(const dv_sweep_t *s, int cmd, int res)
{
    linebuf_t in = {0};
    dv_sweep_row_t row;
    int n;
    dv_sweep_metrics(&n);
    if (dv_sweep_row_init(&row) != DV_OK)
        _exit(3);
    for (;;) {
        size_t used;
        char *line;
        while (!(line = lb_line(&in, &used)))
            if (lb_fill(&in, cmd) <= 0)
                _exit(0);
        const unsigned long long p = strtoull(line, NULL, 10);
        lb_drop(&in, used);
        dv_error_t e;
        memset(&e, 0, sizeof e);
        char head[64];
        char *msg = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&msg, &len);
        if (!f)
            _exit(3);
        snprintf(head, sizeof head, "%llu\t", p);
        fputs(head, f);
        if (dv_sweep_point_run(s, p, &row, &e) == DV_OK) {
            fputs("ok", f);
            for (int i = 0; i < n; i++)
                fprintf(f, "\t%s", row.cell[i]);
        } else {
            char full[1200];
            snprintf(full, sizeof full, "%s:%d: %s", e.file, e.line, e.msg);
            for (char *c = full; *c; c++)
                if (*c == '\t' || *c == '\n' || *c == '\r')
                    *c = ' ';
            fprintf(f, "error\t%s", full);
        }
        fputc('\n', f);
        if (fclose(f) != 0 || write_all(res, msg, len) != 0)
            _exit(3);
        free(msg);
    }
}

typedef struct worker {
    pid_t pid;
    int cmd, res;              /* the parent's ends: write point indices, read results (-1: closed) */
    linebuf_t buf;
    int64_t busy;              /* the point it runs, -1 when idle */
} worker_t;

/* ---------------------------------------------------------------- progress */

typedef struct progress {
    FILE *out;
    bool tty;
    double t0, last;
    uint64_t total, before, done; /* points of the shard, finished before this run, finished now */
    uint64_t to_run;
} progress_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "41 s", "2 m 3 s", "1 h 5 m" */
static void duration(double secs, char *buf, size_t cap)
{
    const long s = (long)(secs + 0.5);
    if (s < 60)
        snprintf(buf, cap, "%ld s", s);
    else if (s < 3600)
        snprintf(buf, cap, "%ld m %ld s", s / 60, s % 60);
    else
        snprintf(buf, cap, "%ld h %ld m", s / 3600, s % 3600 / 60);
}

static void progress_show(progress_t *pg, bool final)
{
    if (!pg->out)
        return;
    const double t = now();
    if (!final && (t - pg->last < (pg->tty ? 0.1 : 10.0) || pg->done == pg->to_run))
        return;
    pg->last = t;
    char el[32], eta[48] = "";
    duration(t - pg->t0, el, sizeof el);
    if (pg->done && pg->done < pg->to_run) {
        char d[32];
        duration((t - pg->t0) / (double)pg->done * (double)(pg->to_run - pg->done), d, sizeof d);
        snprintf(eta, sizeof eta, ", ETA %s", d);
    }
    const uint64_t have = pg->before + pg->done;
    if (pg->tty) {
        enum { W = 30 };
        char bar[W + 1];
        const int full = pg->total ? (int)(have * W / pg->total) : W;
        for (int i = 0; i < W; i++)
            bar[i] = i < full ? '#' : '.';
        bar[W] = '\0';
        fprintf(pg->out, "\r\033[Ksweep [%s] %llu/%llu points, %s%s%s", bar, (unsigned long long)have,
                (unsigned long long)pg->total, el, eta, final ? "\n" : "");
    } else {
        fprintf(pg->out, "sweep: %llu/%llu points, %s%s\n", (unsigned long long)have, (unsigned long long)pg->total,
                el, eta);
    }
    fflush(pg->out);
}

/* A line of its own (a failure), without breaking the bar. */
static void progress_note(progress_t *pg, const char *msg)
{
    if (!pg->out)
        return;
    fprintf(pg->out, "%ssweep: %s\n", pg->tty ? "\r\033[K" : "", msg);
    pg->last = 0;
    progress_show(pg, false);
}

/* ---------------------------------------------------------------- the run */

typedef struct run {
    const dv_sweep_t *s;
    const char *dir;
    char *header;
    int csv, jsonl;            /* results.csv / .jsonl, appending */
    worker_t *w;
    int nworkers;
    uint64_t *todo, ntodo, next;
    progress_t pg;
    dv_sweep_summary_t *sum;
    dv_error_t first;          /* the first failure */
} run_t;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static int spawn(run_t *r, worker_t *w, dv_error_t *err)
{
    int cmd[2], res[2];
    if (pipe(cmd) != 0)
        return dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "sweep: cannot create a pipe: %s", strerror(errno));
    if (pipe(res) != 0) {
        close(cmd[0]);
        close(cmd[1]);
        return dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "sweep: cannot create a pipe: %s", strerror(errno));
    }
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        close(cmd[0]), close(cmd[1]), close(res[0]), close(res[1]);
        return dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "sweep: cannot start a worker: %s", strerror(errno));
    }
    if (pid == 0) {
        /* the worker holds nothing of the parent's: no result files, no other worker's pipe */
        close(cmd[1]);
        close(res[0]);
        close(r->csv);
        close(r->jsonl);
        for (int i = 0; i < r->nworkers; i++)
            if (&r->w[i] != w) {
                if (r->w[i].cmd >= 0)
                    close(r->w[i].cmd);
                if (r->w[i].res >= 0)
                    close(r->w[i].res);
            }
        worker_main(r->s, cmd[0], res[1]);
    }
    close(cmd[0]);
    close(res[1]);
    fcntl(cmd[1], F_SETFD, FD_CLOEXEC);
    fcntl(res[0], F_SETFD, FD_CLOEXEC);
    w->pid = pid;
    w->cmd = cmd[1];
    w->res = res[0];
    w->busy = -1;
    w->buf.n = 0;
    return DV_OK;
}

/* Give worker w its next point, or close its pipe when none is left. */
static void feed(run_t *r, worker_t *w)
{
    char line[32];
    if (r->next == r->ntodo) {
        close_fd(&w->cmd);
        return;
    }
    const uint64_t p = r->todo[r->next++];
    snprintf(line, sizeof line, "%llu\n", (unsigned long long)p);
    w->busy = (int64_t)p;
    if (write_all(w->cmd, line, strlen(line)) != 0) /* it died: its end of file fails the point */
        close_fd(&w->cmd);
}

static void point_failed(run_t *r, const char *msg)
{
    char note[1400];
    r->sum->failed++;
    if (r->sum->failed == 1)
        dv_error_set(&r->first, DV_ERR_STATE, NULL, 0, 0, "%s", msg);
    snprintf(note, sizeof note, "%s", msg);
    progress_note(&r->pg, note);
}

/* A result line: append the row (or report the failure). */
static int take_result(run_t *r, worker_t *w, char *line, dv_error_t *err)
{
    char *tab = strchr(line, '\t'), *csv = NULL, *js = NULL, num[32];
    const unsigned long long p = strtoull(line, NULL, 10);
    int rc = DV_OK;
    if (!tab || (int64_t)p != w->busy)
        return dv_error_set(err, DV_ERR_STATE, NULL, 0, 0, "sweep: a worker answered '%.60s' for point %lld", line,
                            (long long)w->busy);
    w->busy = -1;
    if (strncmp(tab + 1, "ok", 2) != 0) {
        const char *msg = strchr(tab + 1, '\t');
        r->pg.done++;
        point_failed(r, msg ? msg + 1 : tab + 1);
        return DV_OK;
    }
    /* point,workload,axes, then the cells */
    char *cells = tab + 3;
    size_t cap = 256 + strlen(cells) + (size_t)r->s->naxes * (DV_SWEEP_VALUE_MAX + 1);
    if (!(csv = malloc(cap)))
        return dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    snprintf(num, sizeof num, "%llu", p);
    size_t n = (size_t)snprintf(csv, cap, "%s,%s", num, dv_sweep_point_workload(r->s, p)->name);
    for (int a = 0; a < r->s->naxes; a++)
        n += (size_t)snprintf(csv + n, cap - n, ",%s", dv_sweep_value(r->s, p, a));
    for (char *c = cells; *c; c++)
        csv[n++] = *c == '\t' ? ',' : *c;
    csv[n] = '\0';
    if ((rc = sw_json_line(r->header, csv, &js, err)) == DV_OK) {
        csv[n++] = '\n';
        if (write_all(r->csv, csv, n) != 0 || write_all(r->jsonl, js, strlen(js)) != 0)
            rc = dv_error_set(err, DV_ERR_IO, r->dir, 0, 0, "writing the results failed: %s", strerror(errno));
    }
    if (rc == DV_OK) {
        r->sum->ran++;
        r->pg.done++;
        progress_show(&r->pg, false);
    }
    free(csv);
    free(js);
    return rc;
}

/* A worker's end of file: reap it, fail the point it had, and replace it while points are left. */
static int worker_gone(run_t *r, worker_t *w, dv_error_t *err)
{
    int st = 0;
    char msg[640], where[512];
    close_fd(&w->res);
    close_fd(&w->cmd);
    while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
        ;
    w->pid = -1;
    if (w->busy >= 0) {
        dv_sweep_describe(r->s, (uint64_t)w->busy, where, sizeof where);
        if (WIFSIGNALED(st))
            snprintf(msg, sizeof msg, "point %lld (%s): the worker was killed by signal %d", (long long)w->busy, where,
                     WTERMSIG(st));
        else
            snprintf(msg, sizeof msg, "point %lld (%s): the worker exited with status %d", (long long)w->busy, where,
                     WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        r->pg.done++;
        point_failed(r, msg);
        w->busy = -1;
    }
    if (r->next < r->ntodo) {
        int rc = spawn(r, w, err);
        if (rc != DV_OK)
            return rc;
        feed(r, w);
    }
    return DV_OK;
}

/* Poll the workers until every one has finished. */
static int supervise(run_t *r, dv_error_t *err)
{
    struct pollfd *pf = calloc((size_t)r->nworkers, sizeof *pf);
    int *idx = calloc((size_t)r->nworkers, sizeof *idx);
    int rc = DV_OK;
    if (!pf || !idx)
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    for (;;) {
        int n = 0;
        for (int i = 0; rc == DV_OK && i < r->nworkers; i++)
            if (r->w[i].res >= 0) {
                pf[n] = (struct pollfd){.fd = r->w[i].res, .events = POLLIN};
                idx[n++] = i;
            }
        if (rc != DV_OK || n == 0)
            break;
        if (poll(pf, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            rc = dv_error_set(err, DV_ERR_IO, NULL, 0, 0, "sweep: poll failed: %s", strerror(errno));
            break;
        }
        for (int k = 0; k < n && rc == DV_OK; k++) {
            worker_t *w = &r->w[idx[k]];
            if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const int got = lb_fill(&w->buf, w->res);
            size_t used;
            char *line;
            while (rc == DV_OK && (line = lb_line(&w->buf, &used))) {
                rc = take_result(r, w, line, err);
                lb_drop(&w->buf, used);
                if (rc == DV_OK)
                    feed(r, w);
            }
            if (rc == DV_OK && got <= 0)
                rc = worker_gone(r, w, err);
        }
    }
    free(pf);
    free(idx);
    return rc;
}

/* Stop every worker still running (after an error of the parent's). */
static void stop_workers(run_t *r)
{
    for (int i = 0; i < r->nworkers; i++) {
        worker_t *w = &r->w[i];
        close_fd(&w->cmd);
        close_fd(&w->res);
        if (w->pid > 0) {
            kill(w->pid, SIGKILL);
            while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
                ;
            w->pid = -1;
        }
        free(w->buf.p);
        w->buf.p = NULL;
    }
}

/* ---------------------------------------------------------------- the directory */

void dv_sweep_opts_default(dv_sweep_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->shard = o->nshards = 1;
}

void dv_sweep_default_dir(const dv_sweep_t *s, uint32_t shard, uint32_t nshards, char *buf, size_t cap)
{
    const char *base = strrchr(s->path, '/');
    base = base ? base + 1 : s->path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
        n -= 5;
    else if (n > 4 && strcmp(base + n - 4, ".yml") == 0)
        n -= 4;
    if (nshards > 1)
        snprintf(buf, cap, "%.*s_sweep_shard%uof%u", (int)n, base, shard, nshards);
    else
        snprintf(buf, cap, "%.*s_sweep", (int)n, base);
}

/* "3,add,444,131072" */
static void point_prefix(const dv_sweep_t *s, uint64_t p, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "%llu,%s", (unsigned long long)p, dv_sweep_point_workload(s, p)->name);
    for (int a = 0; a < s->naxes && n < cap; a++)
        n += (size_t)snprintf(buf + n, cap - n, ",%s", dv_sweep_value(s, p, a));
}

/* Open the directory for this sweep: refuse another sweep's, write the manifest, the spec and the
 * points, read the rows already there (dropping an interrupted last line) and rewrite both result
 * files from them.  done[p] is set for every point that has its row. */
static int dir_open(run_t *r, const dv_sweep_opts_t *o, uint8_t *done, dv_error_t *err)
{
    const dv_sweep_t *s = r->s;
    char path[DV_SWEEP_PATH_MAX + 32], prefix[DV_SWEEP_PATH_MAX];
    sw_manifest_t m, want;
    sw_rows_t rows;
    bool exists;
    int ncols, rc;
    dv_sweep_metrics(&ncols);
    ncols += 2 + s->naxes;
    if ((rc = sw_manifest_read(r->dir, &m, &exists, err)) != DV_OK)
        return rc;
    snprintf(path, sizeof path, "%s/results.csv", r->dir);
    if (!exists && access(path, F_OK) == 0)
        return dv_error_set(err, DV_ERR_STATE, r->dir, 0, 0, "has a results.csv but no sweep.txt: not a sweep "
                            "directory dvsim can resume into; use another --out");
    if (exists && (m.hash != s->hash || m.points != s->npoints))
        return dv_error_set(err, DV_ERR_STATE, r->dir, 0, 0, "holds the results of another sweep (%s): its points "
                            "differ from those of %s (a changed profile, workload, trace, graph, axis or mode); "
                            "use another --out, or remove the directory to start again", m.spec, s->path);
    if (exists && (m.shard != o->shard || m.nshards != o->nshards))
        return dv_error_set(err, DV_ERR_STATE, r->dir, 0, 0, "holds shard %u/%u of this sweep, not %u/%u; use "
                            "another --out", m.shard, m.nshards, o->shard, o->nshards);
    if ((rc = sw_mkdirs(r->dir, err)) != DV_OK)
        return rc;
    want = (sw_manifest_t){.hash = s->hash, .points = s->npoints, .shard = o->shard, .nshards = o->nshards};
    snprintf(want.spec, sizeof want.spec, "%s", s->path);
    snprintf(path, sizeof path, "%s/spec.yaml", r->dir);
    if ((rc = sw_write_atomic(path, s->text, s->len, err)) != DV_OK ||
        (rc = sw_points_write(r->dir, s, err)) != DV_OK || (rc = sw_manifest_write(r->dir, &want, err)) != DV_OK)
        return rc;
    snprintf(path, sizeof path, "%s/results.csv", r->dir);
    if ((rc = sw_rows_read(path, s->npoints, ncols, &rows, err)) != DV_OK)
        return rc;
    if (rows.header && strcmp(rows.header, r->header) != 0)
        rc = dv_error_set(err, DV_ERR_STATE, path, 1, 0, "its columns differ from those this dvsim writes for %s (a "
                          "results.csv of another dvsim version?); use another --out", s->path);
    for (uint64_t i = 0; rc == DV_OK && i < rows.n; i++) {
        const uint64_t p = rows.point[i];
        point_prefix(s, p, prefix, sizeof prefix);
        const size_t n = strlen(prefix);
        if (p % o->nshards != o->shard - 1 || strncmp(rows.line[i], prefix, n) != 0 || rows.line[i][n] != ',')
            rc = dv_error_set(err, DV_ERR_STATE, path, 0, 0, "the row of point %llu ('%.60s...') is not point %llu "
                              "of shard %u/%u of %s (%s); the file was edited?", (unsigned long long)p, rows.line[i],
                              (unsigned long long)p, o->shard, o->nshards, s->path, prefix);
        done[p] = 1;
    }
    if (rc == DV_OK) {
        r->sum->dropped_partial = rows.dropped_partial;
        r->sum->done_before = rows.n;
        free(rows.header);
        rows.header = strdup(r->header);
        rc = rows.header ? sw_rows_write_sorted(r->dir, &rows, err)
                         : dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
    }
    sw_rows_free(&rows);
    return rc;
}

static int open_append(const char *dir, const char *name, int *fd, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((*fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
        return dv_error_set(err, DV_ERR_IO, path, 0, 0, "cannot append: %s", strerror(errno));
    return DV_OK;
}

/* At the end: results.csv and .jsonl rewritten sorted by point. */
static int dir_close(run_t *r, dv_error_t *err)
{
    char path[DV_SWEEP_PATH_MAX + 32];
    sw_rows_t rows;
    int ncols;
    dv_sweep_metrics(&ncols);
    snprintf(path, sizeof path, "%s/results.csv", r->dir);
    int rc = sw_rows_read(path, r->s->npoints, ncols + 2 + r->s->naxes, &rows, err);
    if (rc == DV_OK)
        rc = sw_rows_write_sorted(r->dir, &rows, err);
    sw_rows_free(&rows);
    return rc;
}

static int online_cpus(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int dv_sweep_run(const dv_sweep_t *s, const dv_sweep_opts_t *o, dv_sweep_summary_t *sum, dv_error_t *err)
{
    char dir[DV_SWEEP_PATH_MAX];
    run_t r;
    dv_sweep_summary_t local;
    uint8_t *done = calloc(s->npoints ? s->npoints : 1, 1);
    struct sigaction ign = {.sa_handler = SIG_IGN}, old;
    bool sig_set = false;
    int rc = DV_OK;
    memset(&r, 0, sizeof r);
    r.csv = r.jsonl = -1;
    r.s = s;
    r.sum = sum ? sum : &local;
    memset(r.sum, 0, sizeof *r.sum);
    if (!done) {
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto cleanup;
    }
    if (o->nshards < 1 || o->shard < 1 || o->shard > o->nshards) {
        rc = dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0, "--shard %u/%u: I/N needs 1 <= I <= N", o->shard, o->nshards);
        goto cleanup;
    }
    if (o->out)
        snprintf(dir, sizeof dir, "%s", o->out);
    else
        dv_sweep_default_dir(s, o->shard, o->nshards, dir, sizeof dir);
    r.dir = dir;

    /* the directory: refuse another sweep's, keep the rows it has */
    if ((rc = sw_header(s, &r.header, err)) != DV_OK || (rc = dir_open(&r, o, done, err)) != DV_OK)
        goto cleanup;
    for (uint64_t p = o->shard - 1; p < s->npoints; p += o->nshards)
        r.sum->points++;
    if (!(r.todo = calloc(r.sum->points ? r.sum->points : 1, sizeof *r.todo))) {
        rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
        goto cleanup;
    }
    for (uint64_t p = o->shard - 1; p < s->npoints; p += o->nshards)
        if (!done[p])
            r.todo[r.ntodo++] = p;

    /* the workers, o->jobs at a time */
    r.pg = (progress_t){.out = o->progress, .tty = o->progress && isatty(fileno(o->progress)), .t0 = now(),
                        .total = r.sum->points, .before = r.sum->done_before, .to_run = r.ntodo};
    r.pg.last = r.pg.t0;
    if (o->progress) {
        if (s->notes)
            fputs(s->notes, o->progress);
        fprintf(o->progress, "sweep: %s: %llu points%s", dir, (unsigned long long)r.sum->points,
                o->nshards > 1 ? " in this shard" : "");
        if (r.sum->done_before)
            fprintf(o->progress, ", %llu done before", (unsigned long long)r.sum->done_before);
        if (r.sum->dropped_partial)
            fprintf(o->progress, " (an interrupted last row dropped)");
        fprintf(o->progress, ", %llu to run\n", (unsigned long long)r.ntodo);
    }
    r.nworkers = o->jobs > 0 ? o->jobs : online_cpus();
    if ((uint64_t)r.nworkers > r.ntodo)
        r.nworkers = (int)r.ntodo;
    if (r.nworkers > 0) {
        if (!(r.w = calloc((size_t)r.nworkers, sizeof *r.w))) {
            rc = dv_error_set(err, DV_ERR_NOMEM, NULL, 0, 0, "out of memory");
            goto cleanup;
        }
        for (int i = 0; i < r.nworkers; i++)
            r.w[i] = (worker_t){.pid = -1, .cmd = -1, .res = -1, .busy = -1};
        if ((rc = open_append(dir, "results.csv", &r.csv, err)) != DV_OK ||
            (rc = open_append(dir, "results.jsonl", &r.jsonl, err)) != DV_OK)
            goto cleanup;
        sigaction(SIGPIPE, &ign, &old); /* a dead worker's pipe fails a write instead of killing us */
        sig_set = true;
        for (int i = 0; i < r.nworkers && rc == DV_OK; i++)
            if ((rc = spawn(&r, &r.w[i], err)) == DV_OK)
                feed(&r, &r.w[i]);
        if (rc == DV_OK)
            rc = supervise(&r, err);
    }
    progress_show(&r.pg, true);

cleanup:
    if (r.w)
        stop_workers(&r);
    if (sig_set)
        sigaction(SIGPIPE, &old, NULL);
    close_fd(&r.csv);
    close_fd(&r.jsonl);
    if (rc == DV_OK && r.dir)
        rc = dir_close(&r, err);
    if (rc == DV_OK && r.sum->failed)
        rc = dv_error_set(err, DV_ERR_STATE, s->path, 0, 0, "%llu of %llu points failed (rerun the command to retry "
                          "them); the first: %s", (unsigned long long)r.sum->failed,
                          (unsigned long long)r.ntodo, r.first.msg);
    free(r.w);
    free(r.todo);
    free(r.header);
    free(done);
    return rc;
}
