/* configs/topology.c - the core topology of a profile (dv/topology.h), from configs/topology.def. */
#include "dv/topology.h"

#include <stdio.h>
#include <string.h>

#define DV_TP(p) (1u << DV_PIPE_##p)
#define DV_TB(s) (1u << DV_SPACE_##s)
#define DV_TK(k) (1u << DV_KIND_##k)
#define TOPO_LAYOUT_COUPLED DV_LAYOUT_COUPLED
#define TOPO_LAYOUT_SPLIT DV_LAYOUT_SPLIT
#define TOPO_PER_ONE false
#define TOPO_PER_AIV_PER_CORE true

static const dv_core_type_spec_t type_specs[DV_CORE_TYPE_COUNT] = {
#define DV_CORE_TYPE(id, type, prefix, layout, per_group, pipes, buffers, kinds, desc) \
    {type, prefix, TOPO_LAYOUT_##layout, TOPO_PER_##per_group, pipes, buffers, kinds, desc},
#include "topology.def"
};

const dv_core_type_spec_t *dv_topo_type_spec(dv_core_type_t t)
{
    return (unsigned)t < DV_CORE_TYPE_COUNT ? &type_specs[t] : NULL;
}

/* ---------------------------------------------------------------- cores of a profile */

static bool present(const dv_config_t *cfg, dv_core_type_t t)
{
    return (unsigned)t < DV_CORE_TYPE_COUNT && type_specs[t].layout == cfg->chip_layout;
}

int dv_topo_types(const dv_config_t *cfg, dv_core_type_t out[DV_CORE_TYPE_COUNT])
{
    int n = 0;
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++)
        if (present(cfg, (dv_core_type_t)t))
            out[n++] = (dv_core_type_t)t;
    return n;
}

uint32_t dv_topo_groups(const dv_config_t *cfg) { return (uint32_t)cfg->chip_ai_cores; }

uint32_t dv_topo_per_group(const dv_config_t *cfg, dv_core_type_t t)
{
    if (!present(cfg, t))
        return 0;
    return type_specs[t].per_aiv ? (uint32_t)cfg->chip_aiv_per_core : 1;
}

uint32_t dv_topo_type_cores(const dv_config_t *cfg, dv_core_type_t t)
{
    return dv_topo_groups(cfg) * dv_topo_per_group(cfg, t);
}

uint32_t dv_topo_cores(const dv_config_t *cfg)
{
    uint32_t n = 0;
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++)
        n += dv_topo_type_cores(cfg, (dv_core_type_t)t);
    return n;
}

uint32_t dv_topo_type_first(const dv_config_t *cfg, dv_core_type_t t)
{
    uint32_t n = 0;
    for (int u = 0; u < (int)t && u < DV_CORE_TYPE_COUNT; u++)
        n += dv_topo_type_cores(cfg, (dv_core_type_t)u);
    return n;
}

dv_core_type_t dv_topo_core_type(const dv_config_t *cfg, uint32_t core)
{
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) {
        const uint32_t n = dv_topo_type_cores(cfg, (dv_core_type_t)t);
        if (core < n)
            return (dv_core_type_t)t;
        core -= n;
    }
    return DV_CORE_TYPE_COUNT;
}

/* Index of a core among the cores of its type. */
static uint32_t type_index(const dv_config_t *cfg, uint32_t core)
{
    return core - dv_topo_type_first(cfg, dv_topo_core_type(cfg, core));
}

uint32_t dv_topo_core_group(const dv_config_t *cfg, uint32_t core)
{
    const uint32_t per = dv_topo_per_group(cfg, dv_topo_core_type(cfg, core));
    return per ? type_index(cfg, core) / per : 0;
}

uint32_t dv_topo_core_rank(const dv_config_t *cfg, uint32_t core)
{
    const uint32_t per = dv_topo_per_group(cfg, dv_topo_core_type(cfg, core));
    return per ? type_index(cfg, core) % per : 0;
}

uint32_t dv_topo_group_core(const dv_config_t *cfg, dv_core_type_t t, uint32_t group, uint32_t rank)
{
    return dv_topo_type_first(cfg, t) + group * dv_topo_per_group(cfg, t) + rank;
}

const char *dv_topo_core_name(const dv_config_t *cfg, uint32_t core, char *buf, size_t cap)
{
    const dv_core_type_t t = dv_topo_core_type(cfg, core);
    if (t == DV_CORE_TYPE_COUNT)
        snprintf(buf, cap, "core%u", core); /* outside the profile */
    else
        snprintf(buf, cap, "%s%u", type_specs[t].prefix, type_index(cfg, core));
    return buf;
}

/* ---------------------------------------------------------------- what a core owns */

/* The profile switch a pipe needs, or NULL when it is always present. */
static const bool *pipe_switch(const dv_config_t *cfg, dv_pipe_t p)
{
#define DV_TOPO_PIPE_NEEDS(pipe, member, key) \
    if (p == DV_PIPE_##pipe)                  \
        return &cfg->member;
#include "topology.def"
    return NULL;
}

unsigned dv_topo_pipes(const dv_config_t *cfg, dv_core_type_t t)
{
    if (!present(cfg, t))
        return 0;
    unsigned m = type_specs[t].pipes;
    for (int p = 0; p < DV_PIPE_COUNT; p++) {
        const bool *on = pipe_switch(cfg, (dv_pipe_t)p);
        if (on && !*on)
            m &= ~(1u << p);
    }
    return m;
}

bool dv_topo_has_pipe(const dv_config_t *cfg, dv_core_type_t t, dv_pipe_t p)
{
    return (unsigned)p < DV_PIPE_COUNT && (dv_topo_pipes(cfg, t) >> p & 1u);
}

bool dv_topo_chip_has_pipe(const dv_config_t *cfg, dv_pipe_t p)
{
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++)
        if (dv_topo_has_pipe(cfg, (dv_core_type_t)t, p))
            return true;
    return false;
}

uint64_t dv_topo_buffer_size(const dv_config_t *cfg, dv_space_t s)
{
#define DV_TOPO_BUFFER(space, size_member, align_member, size_key) \
    if (s == DV_SPACE_##space)                                     \
        return cfg->size_member;
#include "topology.def"
    return 0;
}

uint64_t dv_topo_buffer_align(const dv_config_t *cfg, dv_space_t s)
{
#define DV_TOPO_BUFFER(space, size_member, align_member, size_key) \
    if (s == DV_SPACE_##space)                                     \
        return cfg->align_member;
#include "topology.def"
    return 1;
}

const char *dv_topo_buffer_key(dv_space_t s)
{
#define DV_TOPO_BUFFER(space, size_member, align_member, size_key) \
    if (s == DV_SPACE_##space)                                     \
        return size_key;
#include "topology.def"
    return "gm";
}

unsigned dv_topo_buffers(const dv_config_t *cfg, dv_core_type_t t)
{
    if (!present(cfg, t))
        return 0;
    unsigned m = type_specs[t].buffers;
    for (int s = 0; s < DV_SPACE_COUNT; s++)
        if (dv_topo_buffer_size(cfg, (dv_space_t)s) == 0)
            m &= ~(1u << s);
    return m;
}

bool dv_topo_has_buffer(const dv_config_t *cfg, dv_core_type_t t, dv_space_t s)
{
    return (unsigned)s < DV_SPACE_COUNT && (dv_topo_buffers(cfg, t) >> s & 1u);
}

/* ---------------------------------------------------------------- kernels and sub-streams */

bool dv_topo_runs(dv_core_type_t t, dv_kind_t k)
{
    return (unsigned)t < DV_CORE_TYPE_COUNT && (type_specs[t].kinds >> k & 1u);
}

uint32_t dv_topo_kernel_subs(const dv_config_t *cfg, dv_kind_t k)
{
    if (k != DV_KIND_MIX)
        return dv_topo_kernel_cores(cfg, k) ? 1 : 0;
    uint32_t n = 0;
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++)
        if (dv_topo_runs((dv_core_type_t)t, k))
            n += dv_topo_per_group(cfg, (dv_core_type_t)t);
    return n;
}

uint32_t dv_topo_kernel_cores(const dv_config_t *cfg, dv_kind_t k)
{
    if (k == DV_KIND_MIX)
        return dv_topo_kernel_subs(cfg, k) ? dv_topo_groups(cfg) : 0;
    uint32_t n = 0;
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++)
        if (dv_topo_runs((dv_core_type_t)t, k))
            n += dv_topo_type_cores(cfg, (dv_core_type_t)t);
    return n;
}

/* The mix type that owns sub-stream `sub` (given per-group counts) and the rank within it. */
static dv_core_type_t mix_type_of(const dv_config_t *cfg, uint32_t sub, uint32_t *rank)
{
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) {
        if (!dv_topo_runs((dv_core_type_t)t, DV_KIND_MIX))
            continue;
        const uint32_t n = dv_topo_per_group(cfg, (dv_core_type_t)t);
        if (sub < n) {
            *rank = sub;
            return (dv_core_type_t)t;
        }
        sub -= n;
    }
    *rank = 0;
    return DV_CORE_TYPE_COUNT;
}

dv_core_type_t dv_topo_stream_type(const dv_config_t *cfg, dv_kind_t k, uint32_t sub)
{
    uint32_t rank;
    if (k == DV_KIND_MIX)
        return mix_type_of(cfg, sub, &rank);
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) /* the first type of the layout that runs k */
        if (present(cfg, (dv_core_type_t)t) && dv_topo_runs((dv_core_type_t)t, k))
            return (dv_core_type_t)t;
    return DV_CORE_TYPE_COUNT;
}

uint32_t dv_topo_core_sub(const dv_config_t *cfg, uint32_t core, dv_kind_t k)
{
    if (k != DV_KIND_MIX)
        return DV_SUB_MAIN;
    const dv_core_type_t ct = dv_topo_core_type(cfg, core);
    uint32_t sub = 0;
    for (int t = 0; t < (int)ct; t++)
        if (dv_topo_runs((dv_core_type_t)t, DV_KIND_MIX))
            sub += dv_topo_per_group(cfg, (dv_core_type_t)t);
    return sub + dv_topo_core_rank(cfg, core);
}

/* Sub-stream names do not depend on the profile: the split layout's mix types in table order, a
 * one-per-group type contributing one name (its prefix), the per-AIV type (the last) the rest. */
const char *dv_topo_sub_name(uint32_t sub, char *buf, size_t cap)
{
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) {
        const dv_core_type_spec_t *s = &type_specs[t];
        if (!(s->kinds >> DV_KIND_MIX & 1u))
            continue;
        if (s->per_aiv) {
            snprintf(buf, cap, "%s%u", s->prefix, sub);
            return buf;
        }
        if (sub == 0) {
            snprintf(buf, cap, "%s", s->prefix);
            return buf;
        }
        sub--;
    }
    snprintf(buf, cap, "?");
    return buf;
}

int dv_topo_sub_lookup(const char *name, size_t len)
{
    int sub = 0;
    for (int t = 0; t < DV_CORE_TYPE_COUNT; t++) {
        const dv_core_type_spec_t *s = &type_specs[t];
        if (!(s->kinds >> DV_KIND_MIX & 1u))
            continue;
        const size_t pl = strlen(s->prefix);
        if (!s->per_aiv) {
            if (len == pl && memcmp(name, s->prefix, pl) == 0)
                return sub;
            sub++;
            continue;
        }
        /* prefix + a decimal rank without leading zeros ("aiv0", "aiv12"); capped so it cannot overflow */
        if (len <= pl || len > pl + 6 || memcmp(name, s->prefix, pl) != 0 || (name[pl] == '0' && len > pl + 1))
            return -1;
        int rank = 0;
        for (size_t i = pl; i < len; i++) {
            if (name[i] < '0' || name[i] > '9')
                return -1;
            rank = rank * 10 + (name[i] - '0');
        }
        return sub + rank;
    }
    return -1;
}

int dv_topo_check_kernel(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_error_t *err)
{
    const uint32_t subs = dv_topo_kernel_subs(cfg, info->kind);
    if (subs == 0)
        return dv_error_set(err, DV_ERR_UNSUPPORTED, NULL, 0, 0,
                            "kernel '%s' is a %s kernel, which needs a split (AIC + AIV) chip; profile '%s' is %s "
                            "(chip.layout)",
                            info->name, dv_kind_name(info->kind), cfg->chip_name,
                            cfg->chip_layout == DV_LAYOUT_SPLIT ? "split" : "coupled");
    if (info->kind == DV_KIND_MIX && info->subs != subs) {
        char last[16];
        return dv_error_set(err, DV_ERR_RANGE, NULL, 0, 0,
                            "mix kernel '%s' has %u AIV sub-streams per block (aiv0 .. %s); profile '%s' has "
                            "chip.aiv_per_core = %u: a mix kernel runs on the AIV count it was written for",
                            info->name, info->subs - 1, dv_topo_sub_name(info->subs ? info->subs - 1 : 0, last, sizeof last),
                            cfg->chip_name, subs - 1);
    }
    return DV_OK;
}
