/* tools/genpreset.c - the built-in profiles as loaded: each embedded YAML profile (tools/embed.c)
 * run through the profile loader (configs/config.c) once, at build time, and written as a
 * dv_config_t initialiser, so a run that starts from a preset copies it instead of parsing YAML
 * (libyaml's parse of a profile is ~5 M host instructions, a quarter of a small run).  The YAML
 * stays the one source of the values: this table is a build product, and check_config tests that
 * each entry equals its YAML loaded.  Usage: genpreset > presets_table.c */
#include <inttypes.h>
#include <stdio.h>

#include "banner.h"

#include "dv/config.h"

/* The generator's own table is empty, so that dv_config_preset parses every preset's YAML here. */
const struct dv_preset_config {
    const char *name;
    dv_config_t cfg;
} dv_preset_configs[] = {{.name = NULL}};

/* The members' names, in schema order (dv_param_specs gives the rest of each row). */
static const char *const idents[] = {
#define DV_PARAM(ident, section, key, type, min, max, unit, desc) #ident,
#include "params.def"
#undef DV_PARAM
};

/* A string (a preset's name, a string member) as a C literal: the names are letters, digits, '.',
 * '_' and '-', but whatever is there is quoted. */
static void put_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if (*s < 32 || *s > 126)
            printf("\\%03o", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

int main(void)
{
    int n;
    const dv_param_spec_t *specs = dv_param_specs(&n);
    if (n != (int)(sizeof idents / sizeof idents[0])) {
        fprintf(stderr, "genpreset: %d schema rows but %d member names\n", n, (int)(sizeof idents / sizeof idents[0]));
        return 1;
    }
    printf(DV_BANNER_C("make", "the YAML profiles in configs/ through configs/config.c", "tools/genpreset.c") "\n"
           "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n#include \"dv/config.h\"\n\n"
           "const struct dv_preset_config { const char *name; dv_config_t cfg; } dv_preset_configs[] = {\n");
    for (const char *const *name = dv_profile_names(); *name; name++) {
        dv_config_t cfg;
        dv_error_t err;
        if (dv_config_preset(&cfg, *name, &err) != DV_OK || dv_config_validate(&cfg, &err) != DV_OK) {
            fprintf(stderr, "genpreset: %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
            return 1;
        }
        printf("    {");
        put_string(*name);
        printf(", {\n");
        for (int i = 0; i < n; i++) {
            const dv_param_spec_t *s = &specs[i];
            const char *p = (const char *)&cfg + s->offset;
            printf("        .%s = ", idents[i]);
            switch (s->type) {
            case DV_PT_U64: printf("UINT64_C(%" PRIu64 ")", dv_param_u64(s, &cfg)); break;
            case DV_PT_BOOL: printf("%s", *(const bool *)p ? "true" : "false"); break;
            case DV_PT_LAYOUT: printf("%s", *(const int *)p == DV_LAYOUT_SPLIT ? "DV_LAYOUT_SPLIT" : "DV_LAYOUT_COUPLED"); break;
            case DV_PT_STR: put_string(p); break;
            }
            printf(",\n");
        }
        printf("    }},\n");
    }
    printf("    {.name = NULL},\n};\n");
    return 0;
}
