// CNetworking: one blocking HTTP request through libcurl (GET, or another
// method with a body, such as WebDAV's PROPFIND), for the remote sources;
// and the WebDAV multistatus reader (libxml2).
//
// Redirects are not followed here: the caller sees each 3xx with its
// Location and decides whether to go on and with which headers, so a
// credential never travels to a host it was not meant for. Nothing here
// prints; errors come back as text.
#ifndef CNETWORKING_H
#define CNETWORKING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Told how far a transfer has come; a nonzero return aborts it (cancel).
// `expected` is -1 while the size is not known.
typedef int (*pk_http_progress_fn)(void *context, int64_t received, int64_t expected);

typedef struct {
  const char *url;
  // NULL for GET; else the method, sent with `body` (may be empty).
  const char *method;
  const uint8_t *body;
  size_t body_length;
  // "Name: value" lines, `header_count` of them.
  const char *const *headers;
  int header_count;
  long connect_timeout_ms;
  // The whole transfer; 0 for none.
  long timeout_ms;
  // A transfer slower than 1 byte/s for this long is given up; 0 for none.
  long stall_timeout_ms;
  // Bodies past this size are refused (declared or as they arrive).
  int64_t max_bytes;
  // >= 0: the body is written to this descriptor instead of memory.
  int write_fd;
  pk_http_progress_fn progress;
  void *context;
} pk_http_request;

typedef struct {
  long status;
  // The body when write_fd < 0; malloc'd, free with pk_http_response_free.
  uint8_t *body;
  size_t length;
  // Bytes written to write_fd.
  int64_t written;
  // The absolute target of a 3xx, else empty.
  char location[4096];
  char content_type[256];
  char error[256];
} pk_http_response;

enum {
  PK_HTTP_OK = 0,
  PK_HTTP_FAILED = -1,     // connection, timeout, TLS...: see error
  PK_HTTP_TOO_LARGE = -2,  // over max_bytes
  PK_HTTP_ABORTED = -3,    // the progress callback asked to stop
};

// Once, before any thread uses pk_http_get.
void pk_http_global_init(void);

// libcurl's own version line ("libcurl/7.88.1 OpenSSL/3.0.11 zlib/…"), for
// `--version --verbose`.
const char *pk_http_library_version(void);
// libxml2's run-time version ("21004" for 2.10.4).
const char *pk_xml_library_version(void);

// Connections are kept alive across a thread's transfers unless turned off
// (the benchmark compares both). Call before the first transfer.
void pk_http_set_connection_reuse(int reuse);

// Performs the GET; PK_HTTP_OK means a response arrived (any status).
int pk_http_get(const pk_http_request *request, pk_http_response *response);

void pk_http_response_free(pk_http_response *response);

// One <response> of a WebDAV multistatus: its href (as sent, still
// percent-encoded) and the properties a 2xx <propstat> gave.
typedef struct {
  char href[2048];
  int is_collection;
  int64_t content_length;  // -1 when not given
  char content_type[128];
  char last_modified[64];
  char etag[128];
  char file_id[64];  // Nextcloud/ownCloud oc:fileid
  int has_preview;  // Nextcloud nc:has-preview: 1, 0, or -1 when not given
} pk_dav_entry;

// Reads a PROPFIND reply. Returns 0 with `*entries` (free with
// pk_dav_entries_free), or -1 with `error` set; a DOCTYPE or an entity
// reference is an error, never expanded.
int pk_dav_parse_multistatus(const uint8_t *xml, size_t size, pk_dav_entry **entries, size_t *count, char *error,
  size_t error_size);
void pk_dav_entries_free(pk_dav_entry *entries);

#ifdef __cplusplus
}
#endif

#endif
