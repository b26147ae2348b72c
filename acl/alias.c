/* acl/alias.c - libnnopbase.so and libopapi.so: the names CANN programs link besides libascendcl.so.
 * Both are a dependency on libascendcl.so, which implements the whole AscendCL shim (aclnn objects
 * and operators included), so `-lascendcl -lnnopbase -lopapi` and dlopen of either name resolve
 * every symbol.  They export nothing of their own; this string (hidden) says which name a file is. */
__attribute__((used)) static const char alias_of_libascendcl[] = DV_ALIAS_OF;
