// libcurl, opened the first time a web, WebDAV or rclone source makes a
// request (see optional_library.h for why): with its TLS, Kerberos and LDAP
// libraries it costs about 4 ms of a start that most runs would not use.
#ifndef CNETWORKING_OPTIONAL_CURL_H
#define CNETWORKING_OPTIONAL_CURL_H

// Without its type-checking wrappers; curl.h still defines
// curl_easy_setopt, curl_easy_getinfo and curl_share_setopt as macros
// (undefined below, before the calls are redirected).
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "optional_library.h"

#define PK_CURL_FUNCTIONS(F)                                                                                  \
  F(curl_version) F(curl_global_init) F(curl_easy_init) F(curl_easy_cleanup) F(curl_easy_reset)              \
  F(curl_easy_setopt) F(curl_easy_getinfo) F(curl_easy_perform) F(curl_easy_strerror) F(curl_share_init)      \
  F(curl_share_setopt) F(curl_slist_append) F(curl_slist_free_all)

PK_OPTIONAL_DECLARE_ALL(PK_CURL_FUNCTIONS)

extern pk_optional_library pk_curl_library;

static inline int pk_open_curl(void) { return pk_optional_library_open(&pk_curl_library); }

#ifndef PK_OPTIONAL_CURL_FILLING_IN
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_share_setopt
#define curl_version (*pk_optional_curl_version)
#define curl_global_init (*pk_optional_curl_global_init)
#define curl_easy_init (*pk_optional_curl_easy_init)
#define curl_easy_cleanup (*pk_optional_curl_easy_cleanup)
#define curl_easy_reset (*pk_optional_curl_easy_reset)
#define curl_easy_setopt (*pk_optional_curl_easy_setopt)
#define curl_easy_getinfo (*pk_optional_curl_easy_getinfo)
#define curl_easy_perform (*pk_optional_curl_easy_perform)
#define curl_easy_strerror (*pk_optional_curl_easy_strerror)
#define curl_share_init (*pk_optional_curl_share_init)
#define curl_share_setopt (*pk_optional_curl_share_setopt)
#define curl_slist_append (*pk_optional_curl_slist_append)
#define curl_slist_free_all (*pk_optional_curl_slist_free_all)
#endif

#endif
