/* dv/config.h - chip profiles: the struct generated from configs/params.def, and the loader. */
#ifndef DV_CONFIG_H
#define DV_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dv/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { DV_LAYOUT_COUPLED = 0, DV_LAYOUT_SPLIT = 1 };

#define DV_CONFIG_STR_MAX 32

#define DV_CTYPE_U64 uint64_t
#define DV_CTYPE_BOOL bool
#define DV_CTYPE_LAYOUT int
#define DV_CTYPE_STR char

/* One member per schema row. */
typedef struct dv_config {
#define DV_PARAM(ident, section, key, type, min, max, unit, desc) DV_MEMBER_##type(ident)
#define DV_MEMBER_U64(id) uint64_t id;
#define DV_MEMBER_BOOL(id) bool id;
#define DV_MEMBER_LAYOUT(id) int id;
#define DV_MEMBER_STR(id) char id[DV_CONFIG_STR_MAX];
#include "params.def"
#undef DV_MEMBER_U64
#undef DV_MEMBER_BOOL
#undef DV_MEMBER_LAYOUT
#undef DV_MEMBER_STR
} dv_config_t;

typedef enum dv_param_type { DV_PT_U64, DV_PT_BOOL, DV_PT_STR, DV_PT_LAYOUT } dv_param_type_t;

/* A schema row, as data. */
typedef struct dv_param_spec {
    const char *section;
    const char *key;
    dv_param_type_t type;
    uint64_t min, max;
    const char *unit;
    const char *desc;
    size_t offset; /* of the member in dv_config_t */
} dv_param_spec_t;

/* The schema rows, in table order. */
const dv_param_spec_t *dv_param_specs(int *count);
/* Row for "section.key", NULL when unknown. */
const dv_param_spec_t *dv_param_find(const char *path);
/* The value of a numeric parameter: a U64 as it is, a BOOL as 0 or 1 (0 for the other types). */
uint64_t dv_param_u64(const dv_param_spec_t *spec, const dv_config_t *cfg);
/* Write the value of one parameter as a profile spells it ("196608", "true", "split", a name) into
 * buf; returns the length snprintf would have written. */
int dv_param_format(const dv_param_spec_t *spec, const dv_config_t *cfg, char *buf, size_t size);

/* Names of the built-in presets (NULL-terminated); the first is the default (ascend910b2). */
const char *const *dv_profile_names(void);

/* Load a built-in preset by name. */
int dv_config_preset(dv_config_t *cfg, const char *name, dv_error_t *err);
/* Load a YAML file: a complete profile, or "preset: NAME" plus any overrides. */
int dv_config_load_file(dv_config_t *cfg, const char *path, dv_error_t *err);
/* The same from len bytes of text (name names it in messages). */
int dv_config_load_text(dv_config_t *cfg, const char *text, size_t len, const char *name, dv_error_t *err);
/* Apply "section.key=value" (the --set option). */
int dv_config_set(dv_config_t *cfg, const char *assignment, dv_error_t *err);
/* Cross-parameter checks (e.g. split layout needs aiv_per_core > 0). */
int dv_config_validate(const dv_config_t *cfg, dv_error_t *err);
/* Write the profile as YAML that dv_config_load_file reads back to the same struct. */
void dv_config_dump(const dv_config_t *cfg, FILE *out);

/* The device-memory bandwidth the model's calendar carries: the nominal hbm.bytes_per_cycle times
 * hbm.efficiency_percent, rounded down (at least 1). */
static inline uint64_t dv_hbm_sustained_bytes_per_cycle(const dv_config_t *cfg)
{
    const uint64_t b = cfg->hbm_bytes_per_cycle * cfg->hbm_efficiency_percent / 100;
    return b ? b : 1;
}

#ifdef __cplusplus
}
#endif
#endif
