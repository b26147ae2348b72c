/* model/sc_main.c - the sc_main that SystemC's shared library requires (it defines main() and
 * calls sc_main, extern "C").  dvsim's programs have their own main(), which never calls it.
 * Linked into the executables and into the model plugin (acl/model_plugin.h), never into
 * libascendcl.so. */
__attribute__((visibility("default"))) int sc_main(int argc, char **argv);

int sc_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 1;
}
