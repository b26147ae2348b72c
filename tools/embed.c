/* tools/embed.c - compile YAML profiles into C: dvsim carries its presets, so it runs with no
 * files at all.  Usage: embed FILE.yaml... > profiles_embedded.c */
#include <stdio.h>
#include <string.h>

#include "banner.h"

int main(int argc, char **argv)
{
    printf(DV_BANNER_C("make", "the YAML profiles in configs/", "tools/embed.c") "\n#include <stddef.h>\n");
    printf("const struct dv_embedded_profile { const char *name; const char *file; const char *text; } dv_embedded_profiles[] = {\n");
    /* ascend910b2 first: it is the default */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 1; i < argc; i++) {
            const char *base = strrchr(argv[i], '/');
            base = base ? base + 1 : argv[i];
            int is_default = strcmp(base, "ascend910b2.yaml") == 0;
            if (is_default != (pass == 0))
                continue;
            FILE *f = fopen(argv[i], "rb");
            if (!f) {
                perror(argv[i]);
                return 1;
            }
            printf("  {\"%.*s\", \"%s\",\n   \"", (int)(strlen(base) - 5), base, argv[i]);
            int c, col = 0;
            while ((c = fgetc(f)) != EOF) {
                if (c == '\n') {
                    printf("\\n\"\n   \"");
                    col = 0;
                    continue;
                }
                if (c == '"' || c == '\\')
                    printf("\\%c", c);
                else if (c < 32 || c > 126)
                    printf("\\%03o", c);
                else
                    putchar(c);
                col++;
            }
            (void)col;
            printf("\"},\n");
            fclose(f);
        }
    }
    printf("  {NULL, NULL, NULL}\n};\n");
    return 0;
}
