/* A library of 2,047 functions in a binary tree, each inner one calling its two children through
 * the PLT (weak, so the compiler cannot bind the calls itself, and every call is bound lazily by the
 * loader the first time it is made after a dlopen). bind_tree(x) calls them all: 2,046 bindings, each through the loader's
 * _dl_runtime_resolve and the loader's auditor (la_symbind64). Used by lazy_binding.c. */
#define LEAF(p)                                                                                                        \
  double p(double x);                                                                                                  \
  __attribute__((weak)) double p(double x) { return x * 1.0000001; }
#define NODE(p)                                                                                                        \
  double p(double x);                                                                                                  \
  __attribute__((weak)) double p(double x) { return p##0(x) + p##1(x); }
#define T1(p) LEAF(p##0) LEAF(p##1) NODE(p)
#define T2(p) T1(p##0) T1(p##1) NODE(p)
#define T3(p) T2(p##0) T2(p##1) NODE(p)
#define T4(p) T3(p##0) T3(p##1) NODE(p)
#define T5(p) T4(p##0) T4(p##1) NODE(p)
#define T6(p) T5(p##0) T5(p##1) NODE(p)
#define T7(p) T6(p##0) T6(p##1) NODE(p)
#define T8(p) T7(p##0) T7(p##1) NODE(p)
#define T9(p) T8(p##0) T8(p##1) NODE(p)
#define T10(p) T9(p##0) T9(p##1) NODE(p)

T10(bind_tree)
