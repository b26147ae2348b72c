/* dv/topology.h - the core topology of a profile, read from configs/topology.def: the core types
 * its layout has, their names and counts, the pipes and local buffers each owns, the kernels each
 * runs, the mix sub-streams, and the mapping between a core and its AI core (group) and sub-stream.
 * Every module that needs one of these facts asks here. */
#ifndef DV_TOPOLOGY_H
#define DV_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dv/config.h"
#include "dv/error.h"
#include "dv/isa.h"
#include "dv/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Core types, one per row of configs/topology.def, in table order. */
typedef enum dv_core_type {
#define DV_CORE_TYPE(id, type, prefix, layout, per_group, pipes, buffers, kinds, desc) DV_CORE_##id,
#include "topology.def"
    DV_CORE_TYPE_COUNT
} dv_core_type_t;

/* The most AIVs an AI core may have: the schema's maximum of chip.aiv_per_core.  A mix kernel has
 * at most 1 + DV_TOPO_AIV_MAX sub-streams per block (DV_SUB_MAX). */
#define DV_TOPO_AIV_MAX 4

/* A row of the table, as data.  pipes: bit p for DV_PIPE p; buffers: bit s for DV_SPACE s; kinds:
 * bit k for dv_kind_t k.  These are the table's columns before the profile's switches and buffer
 * sizes are applied (dv_topo_pipes / dv_topo_buffers apply them). */
typedef struct dv_core_type_spec {
    const char *type;   /* "coupled", "aic", "aiv" */
    const char *prefix; /* "core", "aic", "aiv" */
    int layout;         /* DV_LAYOUT_* */
    bool per_aiv;       /* count per group is chip.aiv_per_core (else one) */
    unsigned pipes, buffers, kinds;
    const char *desc;
} dv_core_type_spec_t;

/* The row of type t; NULL when t is not a core type. */
const dv_core_type_spec_t *dv_topo_type_spec(dv_core_type_t t);

/* ---- cores of a profile ---- */
/* The core types the profile's layout has, in table order, into out; returns how many. */
int dv_topo_types(const dv_config_t *cfg, dv_core_type_t out[DV_CORE_TYPE_COUNT]);
/* AI cores (groups): chip.ai_cores. */
uint32_t dv_topo_groups(const dv_config_t *cfg);
/* Cores of type t per group (0 when the layout has no such type). */
uint32_t dv_topo_per_group(const dv_config_t *cfg, dv_core_type_t t);
/* Cores of type t on the chip (0 when absent). */
uint32_t dv_topo_type_cores(const dv_config_t *cfg, dv_core_type_t t);
/* All cores of the chip. */
uint32_t dv_topo_cores(const dv_config_t *cfg);
/* Index of the first core of type t (cores are numbered by type in table order). */
uint32_t dv_topo_type_first(const dv_config_t *cfg, dv_core_type_t t);
/* The type of core `core` (< dv_topo_cores). */
dv_core_type_t dv_topo_core_type(const dv_config_t *cfg, uint32_t core);
/* The AI core (group) core `core` belongs to. */
uint32_t dv_topo_core_group(const dv_config_t *cfg, uint32_t core);
/* Its position among the cores of its type in its group: 0, or 0 .. aiv_per_core-1 for an AIV. */
uint32_t dv_topo_core_rank(const dv_config_t *cfg, uint32_t core);
/* The core of type t at `rank` in group `group`. */
uint32_t dv_topo_group_core(const dv_config_t *cfg, dv_core_type_t t, uint32_t group, uint32_t rank);
/* "core0", "aic3", "aiv7"; returns buf. */
const char *dv_topo_core_name(const dv_config_t *cfg, uint32_t core, char *buf, size_t cap);

/* ---- what a core owns ---- */
/* Pipes of a core of type t on this profile: bit p for DV_PIPE p (0 when the layout lacks t). */
unsigned dv_topo_pipes(const dv_config_t *cfg, dv_core_type_t t);
bool dv_topo_has_pipe(const dv_config_t *cfg, dv_core_type_t t, dv_pipe_t p);
/* Whether any core type of the profile owns pipe p. */
bool dv_topo_chip_has_pipe(const dv_config_t *cfg, dv_pipe_t p);
/* Local buffers of a core of type t: bit s for DV_SPACE s, only those with a profile size > 0. */
unsigned dv_topo_buffers(const dv_config_t *cfg, dv_core_type_t t);
bool dv_topo_has_buffer(const dv_config_t *cfg, dv_core_type_t t, dv_space_t s);
/* A local buffer's profile size and alignment (0 and 1 for GM or a non-space), and the key of its
 * size ("core.ub_size_bytes"; "gm" for GM). */
uint64_t dv_topo_buffer_size(const dv_config_t *cfg, dv_space_t s);
uint64_t dv_topo_buffer_align(const dv_config_t *cfg, dv_space_t s);
const char *dv_topo_buffer_key(dv_space_t s);

/* ---- kernels ---- */
/* Whether a core of type t runs the streams of a kernel of kind k. */
bool dv_topo_runs(dv_core_type_t t, dv_kind_t k);
/* Streams per block of a kernel of kind k on this profile: 1 for vector and cube kernels; for a mix
 * kernel one per core of a group that runs MIX (1 + chip.aiv_per_core); 0 when no core type of the
 * layout runs the kind. */
uint32_t dv_topo_kernel_subs(const dv_config_t *cfg, dv_kind_t k);
/* How many blocks of kind k run at once: the cores that run it, or the groups for a mix kernel. */
uint32_t dv_topo_kernel_cores(const dv_config_t *cfg, dv_kind_t k);
/* The type of core that runs sub-stream `sub` of a kind-k block on this profile. */
dv_core_type_t dv_topo_stream_type(const dv_config_t *cfg, dv_kind_t k, uint32_t sub);
/* The sub-stream core `core` runs of each block of a kind-k kernel (DV_SUB_MAIN unless mix). */
uint32_t dv_topo_core_sub(const dv_config_t *cfg, uint32_t core, dv_kind_t k);
/* The name of mix sub-stream `sub`: "aic", "aiv0" .. ; returns buf.  Independent of the profile. */
const char *dv_topo_sub_name(uint32_t sub, char *buf, size_t cap);
/* The mix sub-stream named by name[0..len): its index (it may be >= DV_SUB_MAX, e.g. "aiv4"; the
 * caller reports the limit), or -1 when the name is no sub-stream name. */
int dv_topo_sub_lookup(const char *name, size_t len);
/* Whether kernel `info` can run on this profile: its kind is run by a core type of the layout
 * (a mix kernel needs a split chip), and a mix kernel has dv_topo_kernel_subs streams per block.
 * The error names the kernel and the profile key; file, line and column are left unset. */
int dv_topo_check_kernel(const dv_config_t *cfg, const dv_kernel_info_t *info, dv_error_t *err);

#ifdef __cplusplus
}
#endif
#endif
