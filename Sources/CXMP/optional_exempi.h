// exempi (Adobe's XMP Toolkit behind a C API), opened the first time the
// picker writes a rating or label (see optional_library.h for why): with
// the C++ runtime and expat behind it, it is a cost every start would pay
// for a feature most runs never use. Include this after nothing else of
// exempi: it includes its header, then makes each function name call
// through the address found at run time, so the code reads as plain calls.
#ifndef CXMP_OPTIONAL_EXEMPI_H
#define CXMP_OPTIONAL_EXEMPI_H

// By its path under the standard include folder: xmp.h includes only the C
// library's headers, so the target needs no -I of its own (Debian installs
// it as /usr/include/exempi-2.0/exempi/xmp.h).
#include <exempi-2.0/exempi/xmp.h>

#include "optional_library.h"

#define PK_EXEMPI_FUNCTIONS(F)                                                                                \
  F(xmp_init) F(xmp_get_error) F(xmp_register_namespace) F(xmp_new_empty) F(xmp_free) F(xmp_parse)          \
  F(xmp_serialize) F(xmp_string_new) F(xmp_string_free) F(xmp_string_cstr) F(xmp_string_len)               \
  F(xmp_get_property) F(xmp_set_property) F(xmp_set_property_int32) F(xmp_delete_property)                  \
  F(xmp_has_property) F(xmp_append_array_item)

PK_OPTIONAL_DECLARE_ALL(PK_EXEMPI_FUNCTIONS)

extern pk_optional_library pk_exempi_library;

// 1 when exempi is there (opened now if it was not yet), else 0 with the
// reason in pk_exempi_library.error.
static inline int pk_open_exempi(void) { return pk_optional_library_open(&pk_exempi_library); }

#ifndef PK_OPTIONAL_EXEMPI_FILLING_IN
#define xmp_init (*pk_optional_xmp_init)
#define xmp_get_error (*pk_optional_xmp_get_error)
#define xmp_register_namespace (*pk_optional_xmp_register_namespace)
#define xmp_new_empty (*pk_optional_xmp_new_empty)
#define xmp_free (*pk_optional_xmp_free)
#define xmp_parse (*pk_optional_xmp_parse)
#define xmp_serialize (*pk_optional_xmp_serialize)
#define xmp_string_new (*pk_optional_xmp_string_new)
#define xmp_string_free (*pk_optional_xmp_string_free)
#define xmp_string_cstr (*pk_optional_xmp_string_cstr)
#define xmp_string_len (*pk_optional_xmp_string_len)
#define xmp_get_property (*pk_optional_xmp_get_property)
#define xmp_set_property (*pk_optional_xmp_set_property)
#define xmp_set_property_int32 (*pk_optional_xmp_set_property_int32)
#define xmp_delete_property (*pk_optional_xmp_delete_property)
#define xmp_has_property (*pk_optional_xmp_has_property)
#define xmp_append_array_item (*pk_optional_xmp_append_array_item)
#endif

#endif
