// A shared library opened the first time it is needed, not at exec. The
// picker links only what every run uses; the codecs and the network stack
// (libheif, libjxl, LibRaw, libcurl) pull in some 40 more libraries whose
// loading and start-up code cost about 11 ms of every start, though most
// runs never meet a HEIC, a RAW or a web source. A system without one of
// them still runs the picker: that format's tiles say what is missing.
#ifndef CSYSTEMCALLS_OPTIONAL_LIBRARY_H
#define CSYSTEMCALLS_OPTIONAL_LIBRARY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pk_optional_library {
  const char *soname;        // "libheif.so.1": the version built against
  const char *const *names;  // its functions this program calls
  void **const *slots;       // where each one's address goes
  size_t count;
  int state;                 // 0 not tried, 1 opened, -1 missing (atomic)
  char error[200];           // why it is missing (dlerror's words)
} pk_optional_library;

// Opens the library and finds every function, once (thread-safe): 1 when
// all are there, else 0 with `error` set. The addresses stay valid for the
// process's life (the library is never closed).
int pk_optional_library_open(pk_optional_library *library);

// For a list of functions written as `#define LIST(F) F(name) F(name) ...`:
// PK_OPTIONAL_DECLARE_ALL(LIST) declares a pointer pk_optional_NAME for
// each (in the library's header), and PK_OPTIONAL_LIBRARY(variable,
// soname, LIST) defines them and the pk_optional_library that fills them
// in (in one .c file, which must see the real names, not the redirects).
#define PK_OPTIONAL_DECLARE(name) extern __typeof__(name) *pk_optional_##name;
#define PK_OPTIONAL_DECLARE_ALL(LIST) LIST(PK_OPTIONAL_DECLARE)
#define PK_OPTIONAL_DEFINE(name) __typeof__(name) *pk_optional_##name;
#define PK_OPTIONAL_NAME(name) #name,
#define PK_OPTIONAL_SLOT(name) (void **)&pk_optional_##name,
#define PK_OPTIONAL_LIBRARY(variable, soname, LIST)                                                    \
  LIST(PK_OPTIONAL_DEFINE)                                                                             \
  static const char *const variable##_names[] = {LIST(PK_OPTIONAL_NAME)};                              \
  static void **const variable##_slots[] = {LIST(PK_OPTIONAL_SLOT)};                                   \
  pk_optional_library variable = {                                                                     \
    soname, variable##_names, variable##_slots, sizeof variable##_names / sizeof *variable##_names, 0, {0}};

#ifdef __cplusplus
}
#endif

#endif
