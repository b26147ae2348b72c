/* acl/alias.c - libnnopbase.so and libopapi.so: the names CANN programs link besides libascendcl.so.
 * Both are this one symbol plus a dependency on libascendcl.so, which implements the whole AscendCL
 * shim (aclnn objects and operators included), so `-lascendcl -lnnopbase -lopapi` and dlopen of
 * either name resolve every symbol. */
const char dv_acl_alias_of_libascendcl[] = DV_ALIAS_OF;
