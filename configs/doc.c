/* configs/doc.c - configs/SCHEMA.md, generated from the schema table and the built-in presets. */
#include "dv/config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "banner.h"

/* A bound as written in the docs: large powers of two as 2^n. */
static void doc_bound(uint64_t v, char *buf, size_t size)
{
    if (v >= (1u << 20) && !(v & (v - 1))) {
        int n = 0;
        while ((v >> n) != 1)
            n++;
        snprintf(buf, size, "2^%d", n);
    } else {
        snprintf(buf, size, "%" PRIu64, v);
    }
}

static void doc_cell(FILE *out, const char *text)
{
    fputs("| ", out);
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            fputc('\\', out);
        fputc(*p, out);
    }
    fputc(' ', out);
}

static const char *doc_type(const dv_param_spec_t *s)
{
    switch (s->type) {
    case DV_PT_U64:
        return "integer";
    case DV_PT_BOOL:
        return "bool";
    case DV_PT_STR:
        return "name";
    case DV_PT_LAYOUT:
        return "layout";
    }
    return "?";
}

void dv_doc_schema(FILE *out)
{
    int count = 0, npresets = 0;
    const dv_param_spec_t *specs = dv_param_specs(&count);
    const char *const *names = dv_profile_names();
    dv_config_t *presets = NULL;
    bool *loaded = NULL;
    char buf[128], lo[32], hi[32];

    while (names[npresets])
        npresets++;
    presets = calloc((size_t)npresets + 1, sizeof *presets);
    loaded = calloc((size_t)npresets + 1, sizeof *loaded);
    if (!presets || !loaded) {
        fputs("error: out of memory\n", out);
        goto cleanup;
    }
    for (int i = 0; i < npresets; i++)
        loaded[i] = dv_config_preset(&presets[i], names[i], NULL) == DV_OK;

    fputs(DV_BANNER_MD("make docs", "configs/params.def and the built-in profiles in configs/", "configs/doc.c")
          "\n\n# dvsim profile schema\n\n", out);
    fputs("A **profile** describes one chip to the model. Every parameter is one row of configs/params.def;\n"
          "this page, the loader and its checks, `dvsim --dump-config` and the config echo in reports are\n"
          "all generated from that table. Times are in cycles of `chip.freq_mhz`.\n\n", out);
    fputs("## Profiles, presets and overrides\n\n", out);
    fputs("- A profile is a YAML mapping of sections. A dotted section such as `vector.add` is a nested\n"
          "  mapping: `vector: { add: { b16_bytes_per_cycle: 256, ... } }`.\n", out);
    fputs("- A **complete profile** sets every key below; a missing key is an error that names it.\n", out);
    fputs("- The **built-in presets** are the complete profiles `configs/NAME.yaml`, compiled into dvsim.\n"
          "  Each value there carries a comment naming its source or marking it an estimate. The first is\n"
          "  the default:\n ", out);
    for (int i = 0; i < npresets; i++)
        fprintf(out, " `%s`%s", names[i], i + 1 < npresets ? "," : ".\n");
    fputs("- An **override file** starts with `preset: NAME` and then sets any subset of keys:\n\n"
          "  ```yaml\n  preset: ascend910b2\n  core:\n    ub_banks: 64\n  vector:\n    exp:\n"
          "      b16_latency_cycles: 10\n  ```\n\n", out);
    fputs("- `--set section.key=value` (repeatable) changes one key after the file is loaded, with the same\n"
          "  checks, e.g. `--set hbm.bytes_per_cycle=1000`.\n", out);
    fputs("- Values: integers are plain decimal or `0x` hex (no sign, fraction, exponent or `_`); bools are\n"
          "  `true` or `false`; a layout is `coupled` or `split`; a name is 1-31 letters, digits, `.`, `_`, `-`.\n",
          out);
    fputs("- Unknown sections or keys, wrong types, values outside the range below and duplicate keys are\n"
          "  errors reported as `file:line:column`. After loading and `--set`, cross-parameter checks run\n"
          "  (dv_config_validate in configs/config.c: layout vs vector cores and pipes, power-of-two\n"
          "  alignments that divide their buffer, UB banks and groups, L2 geometry).\n", out);
    fputs("- `dvsim --dump-config` prints the effective profile as a complete YAML file that loads back\n"
          "  unchanged.\n", out);

    for (int i = 0; i < count; i++) {
        const dv_param_spec_t *s = &specs[i];
        if (i == 0 || strcmp(specs[i - 1].section, s->section) != 0) {
            fprintf(out, "\n## %s\n\n| key | type | range | unit | description |", s->section);
            for (int p = 0; p < npresets; p++)
                fprintf(out, " %s |", names[p]);
            fputs("\n|---|---|---|---|---|", out);
            for (int p = 0; p < npresets; p++)
                fputs("---:|", out);
            fputc('\n', out);
        }
        snprintf(buf, sizeof buf, "`%s`", s->key);
        doc_cell(out, buf);
        doc_cell(out, doc_type(s));
        switch (s->type) {
        case DV_PT_U64:
            doc_bound(s->min, lo, sizeof lo);
            doc_bound(s->max, hi, sizeof hi);
            snprintf(buf, sizeof buf, "%s - %s", lo, hi);
            break;
        case DV_PT_BOOL:
            snprintf(buf, sizeof buf, "true, false");
            break;
        case DV_PT_LAYOUT:
            snprintf(buf, sizeof buf, "coupled, split");
            break;
        case DV_PT_STR:
            snprintf(buf, sizeof buf, "1-%d chars", DV_CONFIG_STR_MAX - 1);
            break;
        }
        doc_cell(out, buf);
        doc_cell(out, s->unit);
        doc_cell(out, s->desc);
        for (int p = 0; p < npresets; p++) {
            if (loaded[p])
                dv_param_format(s, &presets[p], buf, sizeof buf);
            else
                snprintf(buf, sizeof buf, "(preset fails to load)");
            doc_cell(out, buf);
        }
        fputs("|\n", out);
    }
cleanup:
    free(presets);
    free(loaded);
}
