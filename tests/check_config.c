/* tests/check_config.c - chip profiles: the schema table, the built-in presets, the loader and its
 * located errors, --set, the cross checks, the dump round trip and the generated SCHEMA.md. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dv/config.h"

Suite *dv_config_suite(void);
void dv_doc_schema(FILE *out);

extern const struct dv_embedded_profile {
    const char *name;
    const char *file;
    const char *text;
} dv_embedded_profiles[];
extern const struct dv_preset_config {
    const char *name;
    dv_config_t cfg;
} dv_preset_configs[];

/* ---- helpers ---- */

static char tmp_path[256];

/* Write text to a fresh temporary file; its name is left in tmp_path. */
static void write_tmp(const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(tmp_path, sizeof tmp_path, "%s/dvcfgXXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(tmp_path);
    ck_assert_msg(fd >= 0, "mkstemp failed");
    FILE *f = fdopen(fd, "w");
    ck_assert_msg(f != NULL, "fdopen failed");
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

static int load_text(dv_config_t *cfg, const char *text, dv_error_t *err)
{
    write_tmp(text);
    int rc = dv_config_load_file(cfg, tmp_path, err);
    unlink(tmp_path);
    return rc;
}

#define ck_assert_has(haystack, needle) \
    ck_assert_msg(strstr((haystack), (needle)) != NULL, "'%s' does not contain '%s'", (haystack), (needle))

/* Loading text fails with code at file:line:col, and the message contains needle. */
static void expect_load_error(const char *text, int code, int line, int col, const char *needle)
{
    dv_config_t cfg;
    dv_error_t err;
    memset(&err, 0, sizeof err);
    int rc = load_text(&cfg, text, &err);
    ck_assert_msg(rc == code, "rc %d, want %d (%s)", rc, code, err.msg);
    ck_assert_int_eq(err.code, code);
    ck_assert_str_eq(err.file, tmp_path);
    ck_assert_msg(err.line == line && err.col == col, "at %d:%d, want %d:%d (%s)", err.line, err.col, line, col,
                  err.msg);
    ck_assert_has(err.msg, needle);
}

static char *dump_to_string(const dv_config_t *cfg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_msg(f != NULL, "open_memstream failed");
    dv_config_dump(cfg, f);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* Remove every line containing needle. */
static void drop_lines(char *text, const char *needle)
{
    char *p;
    while ((p = strstr(text, needle)) != NULL) {
        char *start = p;
        while (start > text && start[-1] != '\n')
            start--;
        char *end = strchr(p, '\n');
        end = end ? end + 1 : p + strlen(p);
        memmove(start, end, strlen(end) + 1);
    }
}

static void load_preset(dv_config_t *cfg, const char *name)
{
    dv_error_t err;
    memset(cfg, 0, sizeof *cfg);
    int rc = dv_config_preset(cfg, name, &err);
    ck_assert_msg(rc == DV_OK, "preset %s: %s:%d:%d: %s", name, err.file, err.line, err.col, err.msg);
}

/* The struct fails validation and the message names each of the keys given. */
static void expect_invalid(const dv_config_t *cfg, const char *key1, const char *key2)
{
    dv_error_t err;
    memset(&err, 0, sizeof err);
    ck_assert_int_eq(dv_config_validate(cfg, &err), DV_ERR_RANGE);
    ck_assert_has(err.msg, key1);
    if (key2)
        ck_assert_has(err.msg, key2);
}

/* ---- the schema table ---- */

START_TEST(test_config_schema_table)
{
    int n = 0;
    const dv_param_spec_t *specs = dv_param_specs(&n);
    char path[128], other[128];
    ck_assert_int_gt(n, 0);
    for (int i = 0; i < n; i++) {
        const dv_param_spec_t *s = &specs[i];
        snprintf(path, sizeof path, "%s.%s", s->section, s->key);
        ck_assert_msg(s->min <= s->max, "%s: min > max", path);
        ck_assert_msg(s->desc[0] != '\0', "%s: no description", path);
        ck_assert_msg(strchr(s->key, '.') == NULL, "%s: a key may not contain '.'", path);
        ck_assert_msg(dv_param_find(path) == s, "%s: not found by its own path", path);
        ck_assert_msg(s->offset < sizeof(dv_config_t), "%s: offset outside the struct", path);
        for (int j = 0; j < i; j++) {
            snprintf(other, sizeof other, "%s.%s", specs[j].section, specs[j].key);
            ck_assert_msg(strcmp(path, other) != 0, "%s: duplicate path", path);
            ck_assert_msg(specs[j].offset != s->offset, "%s: shares a member with %s", path, other);
        }
        /* A section's rows are contiguous, so the dump writes each section once. */
        if (i > 0 && strcmp(specs[i - 1].section, s->section) != 0)
            for (int j = 0; j < i - 1; j++)
                ck_assert_msg(strcmp(specs[j].section, s->section) != 0, "%s: section '%s' is split", path,
                              s->section);
    }
    ck_assert_ptr_eq(dv_param_find("core.no_such_key"), NULL);
    ck_assert_ptr_eq(dv_param_find("nodot"), NULL);
}
END_TEST

START_TEST(test_config_schema_has_every_vector_class)
{
    char path[128];
#define DV_VCOST(id, name, d)                                                                   \
    snprintf(path, sizeof path, "vector.%s.b16_bytes_per_cycle", name);                        \
    ck_assert_msg(dv_param_find(path) != NULL, "%s missing", path);                           \
    snprintf(path, sizeof path, "vector.%s.b32_latency_cycles", name);                         \
    ck_assert_msg(dv_param_find(path) != NULL, "%s missing", path);
#include "isa.def"
}
END_TEST

/* ---- presets ---- */

START_TEST(test_config_presets_load_and_validate)
{
    const char *const *names = dv_profile_names();
    int count = 0;
    ck_assert_str_eq(names[0], "ascend910b2");
    for (; names[count]; count++) {
        dv_config_t cfg;
        dv_error_t err;
        load_preset(&cfg, names[count]);
        ck_assert_str_eq(cfg.chip_name, names[count]);
        ck_assert_msg(dv_config_validate(&cfg, &err) == DV_OK, "%s: %s", names[count], err.msg);
    }
    ck_assert_int_eq(count, 5);
    const char *want[] = {"ascend910b1", "ascend910b2", "ascend910b3", "ascend910a", "ascend310"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        bool found = false;
        for (int j = 0; j < count; j++)
            found = found || strcmp(names[j], want[i]) == 0;
        ck_assert_msg(found, "preset %s missing", want[i]);
    }
}
END_TEST

START_TEST(test_config_presets_key_values)
{
    dv_config_t b2, b3, c310, a;
    load_preset(&b2, "ascend910b2");
    load_preset(&b3, "ascend910b3");
    load_preset(&c310, "ascend310");
    load_preset(&a, "ascend910a");
    ck_assert_int_eq(b2.chip_layout, DV_LAYOUT_SPLIT);
    ck_assert_uint_eq(b2.chip_freq_mhz, 1800);
    ck_assert_uint_eq(b2.ub_size_bytes, 196608);
    ck_assert_uint_eq(b2.ub_banks, 48);
    ck_assert_uint_eq(b2.vc_CMAX_b16_bpc, 37);
    ck_assert_uint_eq(b2.hbm_bytes_per_cycle, 888);
    ck_assert_uint_eq(b2.l2_bytes_per_cycle, 5200000 / b2.chip_freq_mhz); /* 5.2 TB/s (calibration.md C6) */
    ck_assert_uint_eq(b3.chip_ai_cores, 20);
    ck_assert_int_eq(c310.chip_layout, DV_LAYOUT_COUPLED);
    ck_assert(!c310.chip_has_fix_pipe && c310.chip_l0c_to_ub);
    ck_assert_uint_eq(c310.ub_size_bytes, 253952);
    ck_assert_uint_eq(a.chip_ai_cores, 32);
    ck_assert_uint_eq(a.sync_event_ids, 4);
}
END_TEST

/* Every value line of every built-in profile says where the value comes from. */
START_TEST(test_config_presets_cite_every_value)
{
    for (const struct dv_embedded_profile *p = dv_embedded_profiles; p->name; p++) {
        int line = 0, values = 0;
        for (const char *l = p->text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
            char buf[512];
            size_t n = strcspn(l, "\n");
            line++;
            snprintf(buf, sizeof buf, "%.*s", (int)n, l);
            const char *colon = strstr(buf, ": ");
            const char *hash = strchr(buf, '#');
            if (!colon || (hash && hash < colon))
                continue; /* section header or comment line */
            values++;
            ck_assert_msg(hash != NULL, "%s:%d: value without a source comment", p->file, line);
            ck_assert_msg(strstr(hash, "ref ") || strstr(hash, "estimate") || strstr(hash, "simulator setting") ||
                              strstr(hash, "profile name") ||
                              (strstr(hash, "calibrated") && strstr(hash, "calibration.md")),
                          "%s:%d: comment names no source: %s", p->file, line, hash);
        }
        int n = 0;
        dv_param_specs(&n);
        ck_assert_int_eq(values, n);
    }
}
END_TEST

/* The build-time table of the presets (tools/genpreset.c) holds each embedded profile, in the same
 * order, as its YAML loads: byte for byte, and what dv_config_preset gives. */
START_TEST(test_config_preset_table_equals_yaml)
{
    int i = 0;
    for (const struct dv_embedded_profile *p = dv_embedded_profiles; p->name; p++, i++) {
        dv_config_t yaml, preset;
        dv_error_t err;
        memset(&yaml, 0, sizeof yaml);
        int rc = dv_config_load_text(&yaml, p->text, strlen(p->text), p->file, &err);
        ck_assert_msg(rc == DV_OK, "%s: %s", p->file, err.msg);
        ck_assert_msg(dv_preset_configs[i].name && strcmp(dv_preset_configs[i].name, p->name) == 0,
                      "table entry %d is not %s", i, p->name);
        ck_assert_msg(memcmp(&dv_preset_configs[i].cfg, &yaml, sizeof yaml) == 0, "%s: table and YAML differ", p->name);
        load_preset(&preset, p->name);
        ck_assert_msg(memcmp(&preset, &yaml, sizeof yaml) == 0, "%s: dv_config_preset and YAML differ", p->name);
    }
    ck_assert_ptr_null(dv_preset_configs[i].name);
}
END_TEST

START_TEST(test_config_unknown_preset)
{
    dv_config_t cfg;
    dv_error_t err;
    ck_assert_int_eq(dv_config_preset(&cfg, "ascend999", &err), DV_ERR_UNKNOWN);
    ck_assert_has(err.msg, "unknown preset 'ascend999'");
    ck_assert_has(err.msg, "ascend910b2");
    expect_load_error("preset: ascend999\n", DV_ERR_UNKNOWN, 1, 9, "unknown preset 'ascend999'");
}
END_TEST

/* ---- dump ---- */

START_TEST(test_config_dump_round_trip)
{
    for (const char *const *name = dv_profile_names(); *name; name++) {
        dv_config_t a, b;
        dv_error_t err;
        load_preset(&a, *name);
        char *text = dump_to_string(&a);
        memset(&b, 0, sizeof b);
        int rc = load_text(&b, text, &err);
        ck_assert_msg(rc == DV_OK, "%s: %d:%d: %s", *name, err.line, err.col, err.msg);
        ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "%s: dump does not load back to the same struct", *name);
        char *again = dump_to_string(&b);
        ck_assert_str_eq(text, again);
        free(text);
        free(again);
    }
}
END_TEST

START_TEST(test_config_dump_comments_every_key)
{
    dv_config_t cfg;
    load_preset(&cfg, "ascend910b2");
    char *text = dump_to_string(&cfg);
    ck_assert_has(text, "chip:\n  name: ascend910b2");
    ck_assert_has(text, "vector:\n  repeat_bytes: 256");
    ck_assert_has(text, "  add:\n    b16_bytes_per_cycle: 256");
    ck_assert_has(text, "# bytes: Unified Buffer");
    free(text);
}
END_TEST

/* ---- overrides ---- */

START_TEST(test_config_preset_override_file)
{
    dv_config_t base, cfg;
    dv_error_t err;
    load_preset(&base, "ascend310");
    memset(&cfg, 0, sizeof cfg);
    int rc = load_text(&cfg,
                       "# a 310 with fewer banks\n"
                       "preset: ascend310\n"
                       "core:\n"
                       "  ub_banks: 32\n"
                       "vector:\n"
                       "  exp: { b16_latency_cycles: 0x10 }\n"
                       "chip:\n"
                       "  name: my310\n",
                       &err);
    ck_assert_msg(rc == DV_OK, "%s", err.msg);
    ck_assert_uint_eq(cfg.ub_banks, 32);
    ck_assert_uint_eq(cfg.vc_EXP_b16_lat, 16);
    ck_assert_str_eq(cfg.chip_name, "my310");
    base.ub_banks = 32;
    base.vc_EXP_b16_lat = 16;
    memset(base.chip_name, 0, sizeof base.chip_name);
    strcpy(base.chip_name, "my310");
    ck_assert_msg(memcmp(&base, &cfg, sizeof cfg) == 0, "override changed more than its keys");

    /* A preset alone is the preset. */
    rc = load_text(&cfg, "preset: ascend910b1\n", &err);
    ck_assert_int_eq(rc, DV_OK);
    load_preset(&base, "ascend910b1");
    ck_assert_int_eq(memcmp(&base, &cfg, sizeof cfg), 0);
}
END_TEST

START_TEST(test_config_preset_must_come_first)
{
    expect_load_error("core:\n  ub_banks: 4\npreset: ascend910b2\n", DV_ERR_PARSE, 3, 1, "must be the first key");
}
END_TEST

START_TEST(test_config_set_override)
{
    dv_config_t cfg;
    dv_error_t err;
    load_preset(&cfg, "ascend910b2");
    ck_assert_int_eq(dv_config_set(&cfg, "core.ub_banks=32", &err), DV_OK);
    ck_assert_uint_eq(cfg.ub_banks, 32);
    ck_assert_int_eq(dv_config_set(&cfg, "vector.add.b16_latency_cycles=0x9", &err), DV_OK);
    ck_assert_uint_eq(cfg.vc_ADD_b16_lat, 9);
    ck_assert_int_eq(dv_config_set(&cfg, "chip.layout=coupled", &err), DV_OK);
    ck_assert_int_eq(cfg.chip_layout, DV_LAYOUT_COUPLED);
    ck_assert_int_eq(dv_config_set(&cfg, "chip.has_fix_pipe=false", &err), DV_OK);
    ck_assert(!cfg.chip_has_fix_pipe);
    ck_assert_int_eq(dv_config_set(&cfg, "chip.name=test-chip_1.0", &err), DV_OK);
    ck_assert_str_eq(cfg.chip_name, "test-chip_1.0");
}
END_TEST

START_TEST(test_config_set_errors)
{
    dv_config_t cfg, before;
    dv_error_t err;
    load_preset(&cfg, "ascend910b2");
    before = cfg;

    ck_assert_int_eq(dv_config_set(&cfg, "core.ub_banks", &err), DV_ERR_PARSE);
    ck_assert_str_eq(err.file, "--set");
    ck_assert_int_eq(err.line, 0);
    ck_assert_has(err.msg, "section.key=value");

    ck_assert_int_eq(dv_config_set(&cfg, "core.ub_bank=4", &err), DV_ERR_UNKNOWN);
    ck_assert_has(err.msg, "unknown key 'core.ub_bank'");
    ck_assert_has(err.msg, "did you mean 'core.ub_banks'");

    ck_assert_int_eq(dv_config_set(&cfg, "core.ub_banks=abc", &err), DV_ERR_PARSE);
    ck_assert_has(err.msg, "core.ub_banks");
    ck_assert_has(err.msg, "'abc'");

    ck_assert_int_eq(dv_config_set(&cfg, "core.ub_banks=5000", &err), DV_ERR_RANGE);
    ck_assert_has(err.msg, "core.ub_banks");
    ck_assert_has(err.msg, "[1, 1024] banks");
    ck_assert_str_eq(err.file, "--set");

    ck_assert_int_eq(dv_config_set(&cfg, "chip.gm_to_l0=1", &err), DV_ERR_PARSE);
    ck_assert_has(err.msg, "true or false");
    ck_assert_int_eq(dv_config_set(&cfg, "chip.layout=mixed", &err), DV_ERR_PARSE);
    ck_assert_has(err.msg, "coupled or split");
    ck_assert_int_eq(dv_config_set(&cfg, "chip.name=", &err), DV_ERR_PARSE);
    ck_assert_int_eq(dv_config_set(&cfg, "hbm.bytes_per_cycle=-1", &err), DV_ERR_PARSE);
    ck_assert_has(err.msg, "negative");

    ck_assert_msg(memcmp(&cfg, &before, sizeof cfg) == 0, "a failed --set changed the config");
}
END_TEST

/* ---- located load errors ---- */

START_TEST(test_config_unknown_key)
{
    expect_load_error("preset: ascend910b2\ncore:\n  ub_bank: 4\n", DV_ERR_UNKNOWN, 3, 3,
                      "unknown key 'ub_bank' in section 'core' (did you mean 'ub_banks'?)");
    expect_load_error("preset: ascend910b2\ncore:\n  freq_mhz: 4\n", DV_ERR_UNKNOWN, 3, 3,
                      "'freq_mhz' is a key of section 'chip'");
    expect_load_error("preset: ascend910b2\nvector:\n  add:\n    b16_bytes: 3\n", DV_ERR_UNKNOWN, 4, 5,
                      "unknown key 'b16_bytes' in section 'vector.add'");
    expect_load_error("preset: ascend910b2\nvector:\n  ad:\n    b16_bytes_per_cycle: 3\n", DV_ERR_UNKNOWN, 3, 3,
                      "did you mean 'add'?");
}
END_TEST

START_TEST(test_config_unknown_section)
{
    expect_load_error("preset: ascend910b2\ncroe:\n  ub_banks: 1\n", DV_ERR_UNKNOWN, 2, 1,
                      "unknown section 'croe' (did you mean 'core'?)");
    expect_load_error("preset: ascend910b2\nfreq_mhz: 1000\n", DV_ERR_UNKNOWN, 2, 1,
                      "'freq_mhz' is a key of section 'chip'");
}
END_TEST

START_TEST(test_config_wrong_type)
{
    const char *head = "preset: ascend910b2\n";
    char text[256];
    struct {
        const char *body;
        int line, col;
        const char *needle;
    } cases[] = {
        {"core:\n  ub_banks: abc\n", 3, 13, "core.ub_banks: expected an unsigned integer"},
        {"core:\n  ub_banks: -4\n", 3, 13, "negative"},
        {"hbm:\n  bytes_per_cycle: 1.6e12\n", 3, 20, "fractions and exponents"},
        {"core:\n  ub_banks: 4.5\n", 3, 13, "fractions and exponents"},
        {"core:\n  ub_banks: 1_000\n", 3, 13, "plain decimal or 0x hex"},
        {"core:\n  ub_banks: 010\n", 3, 13, "leading zeros"},
        {"core:\n  ub_banks: \"48\"\n", 3, 13, "quoted string"},
        {"core:\n  ub_banks:\n", 3, 12, "empty value"},
        {"core:\n  ub_banks: [1, 2]\n", 3, 13, "expected a single value, got a sequence"},
        {"chip:\n  has_fix_pipe: yes\n", 3, 17, "chip.has_fix_pipe: expected true or false, got 'yes'"},
        {"chip:\n  layout: mixed\n", 3, 11, "expected coupled or split"},
        {"chip:\n  name: 'two words'\n", 3, 9, "chip.name: expected a name"},
        {"core: 5\n", 2, 7, "section 'core' must be a mapping"},
        {"vector:\n  add: 5\n", 3, 8, "section 'vector.add' must be a mapping"},
        {"? [a, b]\n: 1\n", 2, 3, "expected a key name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, cases[i].body);
        expect_load_error(text, DV_ERR_PARSE, cases[i].line, cases[i].col, cases[i].needle);
    }
    /* Not a mapping at all. */
    expect_load_error("- a\n- b\n", DV_ERR_PARSE, 1, 1, "must be a mapping of sections");
}
END_TEST

START_TEST(test_config_out_of_range)
{
    expect_load_error("preset: ascend910b2\ncore:\n  ub_banks: 5000\n", DV_ERR_RANGE, 3, 13,
                      "core.ub_banks: value 5000 is out of range [1, 1024] banks");
    expect_load_error("preset: ascend910b2\nchip:\n  freq_mhz: 0\n", DV_ERR_RANGE, 3, 13, "[1, 10000] MHz");
    expect_load_error("preset: ascend910b2\nchip:\n  aiv_per_core: 0x10\n", DV_ERR_RANGE, 3, 17, "[0, 4] cores");
    expect_load_error("preset: ascend910b2\ncore:\n  ub_banks: 99999999999999999999999\n", DV_ERR_RANGE, 3, 13,
                      "too large");
}
END_TEST

START_TEST(test_config_missing_key)
{
    dv_config_t cfg;
    load_preset(&cfg, "ascend910b2");
    char *text = dump_to_string(&cfg);
    drop_lines(text, "  ub_banks:");
    drop_lines(text, "  ways:");
    expect_load_error(text, DV_ERR_PARSE, 1, 1, "incomplete profile: 2 keys missing: core.ub_banks, l2.ways");
    free(text);
    expect_load_error("chip:\n  name: x\n", DV_ERR_PARSE, 1, 1, "chip.layout, chip.freq_mhz");
}
END_TEST

START_TEST(test_config_duplicate_key)
{
    expect_load_error("preset: ascend910b2\ncore:\n  ub_banks: 4\n  ub_banks: 8\n", DV_ERR_PARSE, 4, 3,
                      "duplicate key 'ub_banks' in section 'core' (first set at line 3)");
    expect_load_error("preset: ascend910b2\ncore:\n  ub_banks: 4\ncore:\n  ub_banks: 8\n", DV_ERR_PARSE, 4, 1,
                      "duplicate section 'core' (first at line 2)");
}
END_TEST

START_TEST(test_config_yaml_syntax_error)
{
    expect_load_error("preset: ascend910b2\nchip:\n bad: 1\n  x: 2\n", DV_ERR_PARSE, 4, 4,
                      "YAML syntax error: mapping values are not allowed");
    expect_load_error("preset: ascend910b2\ncore:\n  ub_banks: [1, 2\n", DV_ERR_PARSE, 4, 1,
                      "YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence started at line 3, column 13");
    expect_load_error("preset: ascend910b2\n---\ncore: {}\n", DV_ERR_PARSE, 3, 1, "one YAML document");
    expect_load_error("", DV_ERR_PARSE, 1, 1, "empty profile");
    expect_load_error("preset: ascend910b2\nchip:\n  name: \xff\n", DV_ERR_PARSE, 3, 9, "YAML syntax error");
}
END_TEST

START_TEST(test_config_io_error)
{
    dv_config_t cfg;
    dv_error_t err;
    ck_assert_int_eq(dv_config_load_file(&cfg, "/nonexistent/dvsim.yaml", &err), DV_ERR_IO);
    ck_assert_str_eq(err.file, "/nonexistent/dvsim.yaml");
    ck_assert_has(err.msg, "cannot open profile");
}
END_TEST

START_TEST(test_config_failed_load_keeps_config)
{
    dv_config_t cfg, before;
    dv_error_t err;
    load_preset(&cfg, "ascend910a");
    before = cfg;
    ck_assert_int_eq(load_text(&cfg, "preset: ascend910b2\ncore:\n  ub_banks: 4\n  nope: 1\n", &err), DV_ERR_UNKNOWN);
    ck_assert_int_eq(memcmp(&cfg, &before, sizeof cfg), 0);
}
END_TEST

/* ---- cross checks ---- */

START_TEST(test_config_validate_cross_checks)
{
    dv_config_t base, c;
    load_preset(&base, "ascend910b2");

    c = base, c.chip_aiv_per_core = 0;
    expect_invalid(&c, "chip.layout", "chip.aiv_per_core");
    c = base, c.chip_l0c_to_ub = true;
    expect_invalid(&c, "chip.l0c_to_ub", "chip.layout");
    c = base, c.chip_layout = DV_LAYOUT_COUPLED;
    expect_invalid(&c, "chip.layout", "chip.aiv_per_core");
    c = base, c.chip_layout = DV_LAYOUT_COUPLED, c.chip_aiv_per_core = 0;
    expect_invalid(&c, "chip.has_fix_pipe", "chip.layout");
    c = base, c.chip_has_fix_pipe = false;
    expect_invalid(&c, "chip.has_fix_pipe", "chip.l0c_to_ub");
    c = base, c.chip_has_fix_pipe = false, c.chip_layout = DV_LAYOUT_COUPLED, c.chip_aiv_per_core = 0,
    c.chip_l0c_to_ub = true;
    expect_invalid(&c, "core.fb_size_bytes", "chip.has_fix_pipe");
    c = base, c.ub_banks = 40;
    expect_invalid(&c, "core.ub_banks", "core.ub_bank_groups");
    c = base, c.ub_size_bytes = 196608 - 1024;
    expect_invalid(&c, "core.ub_size_bytes", "core.ub_banks");
    c = base, c.l0a_align_bytes = 384;
    expect_invalid(&c, "core.l0a_align_bytes", "power of two");
    c = base, c.l1_size_bytes = 524288 + 16;
    expect_invalid(&c, "core.l1_size_bytes", "core.l1_align_bytes");
    c = base, c.l2_line_bytes = 384;
    expect_invalid(&c, "l2.line_bytes", "power of two");
    c = base, c.l2_size_bytes = 4096;
    expect_invalid(&c, "l2.ways", "l2.size_bytes");
    c = base, c.l2_size_bytes = 201326592 + 8192 * 3 / 2;
    expect_invalid(&c, "l2.size_bytes", "l2.ways");
    c = base, c.gm_uop_bytes = 500;
    expect_invalid(&c, "gm.uop_bytes", NULL);
    c = base, c.vector_repeat_bytes = 250;
    expect_invalid(&c, "vector.repeat_bytes", "vector.block_bytes");
    c = base, c.queue_v_depth = 0;
    expect_invalid(&c, "queue.v_depth", "out of range");
    c = base, c.chip_layout = 7;
    expect_invalid(&c, "chip.layout", NULL);
    c = base, memset(c.chip_name, 0, sizeof c.chip_name);
    expect_invalid(&c, "chip.name", NULL);

    /* No L2 at all is allowed: every access goes to HBM. */
    c = base, c.l2_size_bytes = 0;
    ck_assert_int_eq(dv_config_validate(&c, NULL), DV_OK);
}
END_TEST

/* ---- generated documentation ---- */

START_TEST(test_config_doc_schema)
{
    char *buf = NULL;
    size_t len = 0;
    int n = 0, rows = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_msg(f != NULL, "open_memstream failed");
    dv_doc_schema(f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_has(buf, "Generated by `make docs`");
    ck_assert_has(buf, "configs/params.def");
    ck_assert_has(buf, "Do not edit");
    ck_assert_has(buf, "preset: ascend910b2");
    ck_assert_has(buf, "--set");
    ck_assert_has(buf, "\n## vector.add\n");
    ck_assert_has(buf, "| `ub_size_bytes` | integer | 0 - 2^30 | bytes | Unified Buffer per vector-capable core | 196608 |");
    for (const char *const *p = dv_profile_names(); *p; p++)
        ck_assert_has(buf, *p);
    ck_assert_msg(strstr(buf, "fails to load") == NULL, "a preset failed to load in the doc");
    for (const char *p = buf; (p = strstr(p, "\n| `")) != NULL; p++)
        rows++;
    dv_param_specs(&n);
    ck_assert_int_eq(rows, n);
    free(buf);
}
END_TEST

Suite *dv_config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, test_config_schema_table);
    tcase_add_test(tc, test_config_schema_has_every_vector_class);
    tcase_add_test(tc, test_config_presets_load_and_validate);
    tcase_add_test(tc, test_config_presets_key_values);
    tcase_add_test(tc, test_config_presets_cite_every_value);
    tcase_add_test(tc, test_config_preset_table_equals_yaml);
    tcase_add_test(tc, test_config_unknown_preset);
    tcase_add_test(tc, test_config_dump_round_trip);
    tcase_add_test(tc, test_config_dump_comments_every_key);
    tcase_add_test(tc, test_config_preset_override_file);
    tcase_add_test(tc, test_config_preset_must_come_first);
    tcase_add_test(tc, test_config_set_override);
    tcase_add_test(tc, test_config_set_errors);
    tcase_add_test(tc, test_config_unknown_key);
    tcase_add_test(tc, test_config_unknown_section);
    tcase_add_test(tc, test_config_wrong_type);
    tcase_add_test(tc, test_config_out_of_range);
    tcase_add_test(tc, test_config_missing_key);
    tcase_add_test(tc, test_config_duplicate_key);
    tcase_add_test(tc, test_config_yaml_syntax_error);
    tcase_add_test(tc, test_config_io_error);
    tcase_add_test(tc, test_config_failed_load_keeps_config);
    tcase_add_test(tc, test_config_validate_cross_checks);
    tcase_add_test(tc, test_config_doc_schema);
    suite_add_tcase(s, tc);
    return s;
}
